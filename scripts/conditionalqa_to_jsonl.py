#!/usr/bin/env python3
"""Turn ConditionalQA yes/no questions into the input of `precept eval DIR --qa FILE.jsonl`.

Usage:
    python3 scripts/conditionalqa_to_jsonl.py INPUT [--out FILE] [--url URL]

INPUT is either
  * a "picked" file (picked/*.questions.json): an object
    {"title", "url", "source_file", "questions": [QUESTION, ...]}, or
  * the raw ConditionalQA dev.json: a list [QUESTION, ...],
where a QUESTION is {"id", "url"?, "scenario", "question", "not_answerable",
"answers": [[text, conditions], ...], "evidences"}.  With --url only the
questions of that document are kept (for a picked file, the file's own "url"
must match); it is an error if no question matches.

Output: JSON Lines (UTF-8, one object per line, input order).  Every usable
question gives two lines, first its gold answer, then the opposite one:

    {"id": "dev-65:gold", "scenario": "...", "question": "...", "answer": "No.", "label": "valid"}
    {"id": "dev-65:opposite", "scenario": "...", "question": "...", "answer": "Yes.", "label": "invalid"}

Keys come in this order; "scenario" is left out when the scenario is empty,
and "conditional": true is added to both lines when a gold answer holds only
under conditions (a non-empty conditions list).

A question is usable when it is answerable, has at least one answer, every
answer is "yes" or "no" (case and surrounding spaces or a final period
ignored) and they all agree.  The others are skipped and counted in a summary
line on stderr.

Errors (a missing or unreadable file, invalid JSON, a file of neither shape,
a malformed question, a duplicate id, a --url that matches nothing) print one
line on stderr naming the file and exit with code 2; --out is then left
untouched (the output is written to a temporary file and renamed into place).
"""

import argparse
import json
import os
import sys
import tempfile

PROG = "conditionalqa_to_jsonl"
EXPECTED_SHAPE = (
    'a ConditionalQA questions file: a JSON list of questions (dev.json) '
    'or an object with a "questions" list (picked format)'
)
ANSWER_TEXT = {"yes": "Yes.", "no": "No."}
OPPOSITE = {"yes": "no", "no": "yes"}


class InputError(Exception):
    """A problem with the input or output that ends the run with exit code 2."""


def json_kind(value):
    """The JSON name of a parsed value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def load_json(path):
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(
            f"{path}: not UTF-8 (byte {err.start}); expected {EXPECTED_SHAPE}"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(
            f"{path}:{err.lineno}:{err.colno}: invalid JSON: {err.msg}; "
            f"expected {EXPECTED_SHAPE}"
        ) from None


def same_url(a, b):
    return a.strip().rstrip("/") == b.strip().rstrip("/")


def select_questions(path, data, url):
    """(position, question) pairs of either input shape, filtered by url."""
    if isinstance(data, list):
        questions = data
        document_url = None
    elif isinstance(data, dict) and isinstance(data.get("questions"), list):
        questions = data["questions"]
        document_url = data.get("url")
        if document_url is not None and not isinstance(document_url, str):
            raise InputError(
                f'{path}: "url" must be a string, found {json_kind(document_url)}'
            )
    elif isinstance(data, dict) and "questions" in data:
        raise InputError(
            f'{path}: "questions" must be a list, '
            f'found {json_kind(data["questions"])}; expected {EXPECTED_SHAPE}'
        )
    else:
        raise InputError(f"{path}: expected {EXPECTED_SHAPE}, found {json_kind(data)}")

    for index, question in enumerate(questions):
        if not isinstance(question, dict):
            raise InputError(
                f"{path}: question {index + 1}: expected an object, "
                f"found {json_kind(question)}"
            )
    if url is None:
        return list(enumerate(questions))

    selected = []
    for index, question in enumerate(questions):
        own = question.get("url", document_url)
        if own is not None and not isinstance(own, str):
            raise InputError(
                f'{path}: question {index + 1}: "url" must be a string, '
                f"found {json_kind(own)}"
            )
        if own is not None and same_url(own, url):
            selected.append((index, question))
    if not selected:
        raise InputError(f"{path}: no question has url {url}")
    return selected


def field(path, index, question, name, kinds, kind_name, required=True):
    """One field of a question, checked against the expected JSON type."""
    qid = question.get("id")
    where = f"question {index + 1}" + (f" ({qid})" if isinstance(qid, str) else "")
    if name not in question:
        if required:
            raise InputError(f'{path}: {where}: missing "{name}"')
        return None
    value = question[name]
    if not isinstance(value, kinds):
        raise InputError(
            f'{path}: {where}: "{name}" must be {kind_name}, found {json_kind(value)}'
        )
    return value


def yes_no(text):
    """'yes' or 'no' for a yes/no answer text, else None."""
    word = text.strip().lower()
    if word.endswith("."):
        word = word[:-1].rstrip()
    return word if word in ANSWER_TEXT else None


def convert(path, questions):
    """(lines, counts) for (position, question) pairs: the JSONL lines and
    how many questions went where."""
    lines = []
    counts = {"usable": 0, "not answerable": 0, "not yes/no": 0, "disagreeing": 0}
    seen = set()
    for index, question in questions:
        qid = field(path, index, question, "id", str, "a string")
        text = field(path, index, question, "question", str, "a string")
        scenario = field(path, index, question, "scenario", str, "a string", False)
        not_answerable = field(
            path, index, question, "not_answerable", bool, "true or false", False
        )
        answers = field(path, index, question, "answers", list, "a list")
        if qid in seen:
            raise InputError(f"{path}: question {index + 1}: duplicate id {qid}")
        seen.add(qid)

        words = set()
        conditional = False
        all_yes_no = bool(answers)
        for answer in answers:
            if (
                not isinstance(answer, list)
                or len(answer) != 2
                or not isinstance(answer[0], str)
                or not isinstance(answer[1], list)
            ):
                raise InputError(
                    f'{path}: question {index + 1} ({qid}): "answers" must be '
                    "a list of [text, conditions] pairs"
                )
            word = yes_no(answer[0])
            if word is None:
                all_yes_no = False
            else:
                words.add(word)
            if answer[1]:
                conditional = True

        if not_answerable:
            counts["not answerable"] += 1
            continue
        if not all_yes_no:
            counts["not yes/no"] += 1
            continue
        if len(words) != 1:
            counts["disagreeing"] += 1
            continue
        counts["usable"] += 1

        gold = words.pop()
        for suffix, word, label in (
            ("gold", gold, "valid"),
            ("opposite", OPPOSITE[gold], "invalid"),
        ):
            record = {"id": f"{qid}:{suffix}"}
            if scenario and scenario.strip():
                record["scenario"] = scenario.strip()
            record["question"] = text.strip()
            record["answer"] = ANSWER_TEXT[word]
            record["label"] = label
            if conditional:
                record["conditional"] = True
            lines.append(json.dumps(record, ensure_ascii=False))
    return lines, counts


def write_atomically(target, data):
    directory = os.path.dirname(os.path.abspath(target))
    try:
        fd, temp = tempfile.mkstemp(
            prefix="." + os.path.basename(target) + ".", suffix=".tmp", dir=directory
        )
    except OSError as err:
        raise InputError(f"{target}: cannot write: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, target)
    except OSError as err:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise InputError(f"{target}: cannot write: {err.strerror or err}") from None


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="conditionalqa_to_jsonl.py",
        description="Turn ConditionalQA yes/no questions into precept --qa JSONL.",
    )
    parser.add_argument("input", metavar="INPUT", help="picked *.questions.json or dev.json")
    parser.add_argument("--out", metavar="FILE", help="write here instead of stdout")
    parser.add_argument("--url", metavar="URL", help="keep only this document's questions")
    args = parser.parse_args(argv)

    try:
        data = load_json(args.input)
        questions = select_questions(args.input, data, args.url)
        lines, counts = convert(args.input, questions)
        output = "".join(line + "\n" for line in lines).encode("utf-8")
        if args.out is not None:
            write_atomically(args.out, output)
    except InputError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2

    if args.out is None:
        try:
            sys.stdout.buffer.write(output)
            sys.stdout.flush()
        except BrokenPipeError:
            # The reader went away (e.g. `| head`); don't complain at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1

    skipped = len(questions) - counts["usable"]
    print(
        f"{PROG}: {args.input}: {len(questions)} "
        f"question{'' if len(questions) == 1 else 's'}"
        f"{'' if args.url is None else ' with url ' + args.url}, "
        f"{counts['usable']} usable ({len(lines)} lines), {skipped} skipped "
        f"(not answerable {counts['not answerable']}, "
        f"not yes/no {counts['not yes/no']}, disagreeing {counts['disagreeing']})",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
