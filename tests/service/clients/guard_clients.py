"""Drives `precept serve --guard` with the official `openai` or `anthropic`
Python client, as a chat app would, and prints what the app saw: one JSON
object per line (scenario, text, verdict, header, error type).

Usage: guard_clients.py openai|anthropic BASE_URL SCENARIO...
Scenarios: plain, stream, broken (the chatbot's stream breaks off),
followup (a conversation with earlier turns).
"""

import json
import sys

SYSTEM = "You answer questions about the shop's policy."
QUESTION = "I am a member. Do I get the discount?"
BROKEN = "I am a member. Do I get the discount? BREAK"
EARLIER = [
    {"role": "user", "content": "Is there a members' club?"},
    {"role": "assistant", "content": "Yes, anyone can join."},
]


def extra(model, name):
    """A field the API does not define, as the client keeps it."""
    extras = getattr(model, "model_extra", None) or {}
    return extras.get(name)


def openai_case(base_url, scenario):
    import openai

    client = openai.OpenAI(base_url=base_url + "/v1", api_key="unused", max_retries=0, timeout=60)
    question = BROKEN if scenario == "broken" else QUESTION
    messages = [{"role": "system", "content": SYSTEM}]
    if scenario == "followup":
        messages += EARLIER
    messages.append({"role": "user", "content": question})
    seen = {"scenario": scenario}
    try:
        if scenario in ("plain", "followup"):
            raw = client.chat.completions.with_raw_response.create(model="app-model", messages=messages)
            seen["header"] = raw.headers.get("x-precept-finding")
            completion = raw.parse()
            seen["text"] = completion.choices[0].message.content
            seen["precept"] = extra(completion, "precept")
        else:
            raw = client.chat.completions.with_raw_response.create(
                model="app-model", messages=messages, stream=True
            )
            seen["header"] = raw.headers.get("x-precept-finding")
            text, chunks = "", []
            for chunk in raw.parse():
                delta = chunk.choices[0].delta.content if chunk.choices else None
                text += delta or ""
                chunks.append({"content": delta, "precept": extra(chunk, "precept"),
                               "finish": chunk.choices[0].finish_reason if chunk.choices else None})
            seen["text"] = text
            seen["chunks"] = chunks
            carrying = [c for c in chunks if c["precept"] is not None]
            seen["precept"] = carrying[-1]["precept"] if carrying else None
    except openai.APIError as error:
        seen["error"] = type(error).__name__
        seen["is_api_error"] = True
        seen["message"] = str(error)
    return seen


def anthropic_case(base_url, scenario):
    import anthropic

    client = anthropic.Anthropic(base_url=base_url, api_key="unused", max_retries=0, timeout=60)
    question = BROKEN if scenario == "broken" else QUESTION
    messages = list(EARLIER) if scenario == "followup" else []
    messages.append({"role": "user", "content": question})
    seen = {"scenario": scenario}
    try:
        if scenario in ("plain", "followup"):
            raw = client.messages.with_raw_response.create(
                model="app-model", max_tokens=200, system=SYSTEM, messages=messages
            )
            seen["header"] = raw.headers.get("x-precept-finding")
            message = raw.parse()
            seen["text"] = "".join(b.text for b in message.content if b.type == "text")
            seen["precept"] = extra(message, "precept")
        else:
            raw = client.messages.with_raw_response.create(
                model="app-model", max_tokens=200, system=SYSTEM, messages=messages, stream=True
            )
            seen["header"] = raw.headers.get("x-precept-finding")
            text, types, precept = "", [], None
            for event in raw.parse():
                types.append(event.type)
                if event.type == "content_block_delta":
                    text += event.delta.text
                if event.type == "message_delta":
                    precept = extra(event, "precept")
            seen["text"] = text
            seen["events"] = types
            seen["precept"] = precept
    except anthropic.APIError as error:
        seen["error"] = type(error).__name__
        seen["is_api_error"] = True
        seen["message"] = str(error)
    return seen


def main():
    api, base_url, scenarios = sys.argv[1], sys.argv[2], sys.argv[3:]
    case = openai_case if api == "openai" else anthropic_case
    for scenario in scenarios:
        print(json.dumps(case(base_url, scenario)), flush=True)


if __name__ == "__main__":
    main()
