//! `recheck.sh`: a POSIX shell script that re-checks a bundle with any
//! SMT-LIB solver on PATH, without Precept.

/// The script's text (the same for every bundle: it reads the manifest).
pub const RECHECK_SCRIPT: &str = r#"#!/bin/sh
# recheck.sh: re-checks this audit bundle without Precept.
#
# For every file listed in manifest.json it verifies the SHA-256; for every
# query (a file with an expected answer) it runs z3, and cvc5 when it is on
# PATH, and compares the answer with the manifest.
# Exit status: 0 when everything agrees; 1 when a file was changed, is
# missing or a solver disagrees (each such file is named on a FAIL line);
# 2 when a tool it needs is missing.
# RECHECK_SOLVERS limits the solvers (default "z3 cvc5"; z3 is required),
# RECHECK_TIMEOUT sets each query's time limit in seconds (default 60).
set -u
cd "$(dirname "$0")" || exit 2

if command -v sha256sum >/dev/null 2>&1; then
  hasher="sha256sum"
elif command -v shasum >/dev/null 2>&1; then
  hasher="shasum -a 256"
else
  echo "recheck: neither sha256sum nor shasum is installed" >&2
  exit 2
fi

solvers=${RECHECK_SOLVERS:-"z3 cvc5"}
timeout=${RECHECK_TIMEOUT:-60}
have=""
for solver in $solvers; do
  if command -v "$solver" >/dev/null 2>&1; then
    have="$have $solver"
  elif [ "$solver" = z3 ]; then
    echo "recheck: z3 is not on PATH (install it, or put it on PATH)" >&2
    exit 2
  fi
done
if [ -z "$have" ]; then
  echo "recheck: none of the solvers ($solvers) is on PATH" >&2
  exit 2
fi
if [ ! -f manifest.json ]; then
  echo "FAIL manifest.json: missing"
  exit 1
fi

entries=$(mktemp) || exit 2
present=$(mktemp) || exit 2
computed=$(mktemp) || exit 2
trap 'rm -f "$entries" "$present" "$computed"' EXIT
tab=$(printf '\t')

# One line per listed file: its name, its SHA-256 and, for a query, the
# answer a solver must give.
sed -n 's/^    {"file":"\([^"]*\)","sha256":"\([0-9a-f]*\)"\(,"expected":"\([a-z]*\)"\)\{0,1\}},\{0,1\}$/\1'"$tab"'\2'"$tab"'\4/p' \
  manifest.json > "$entries"
listed=$(grep -c '^    {"file":' manifest.json)
parsed=$(wc -l < "$entries")

failures=0
queries=0
fail() {
  echo "FAIL $1: $2"
  failures=$((failures + 1))
}
if [ "$listed" -ne "$parsed" ]; then
  fail manifest.json "$((listed - parsed)) file entries cannot be read"
fi

# Every listed file must be here, unchanged.
while IFS="$tab" read -r file sum expected; do
  if [ -f "$file" ]; then
    printf '%s\n' "$file" >> "$present"
  else
    fail "$file" "listed in the manifest but missing"
  fi
done < "$entries"
files=$(wc -l < "$present")
if [ "$files" -gt 0 ]; then
  # shellcheck disable=SC2086 # the hasher is a command and its options
  xargs $hasher < "$present" > "$computed"
fi
changed=$(awk -v tab="$tab" '
  NR == FNR { split($0, f, tab); want[f[1]] = f[2]; next }
  { file = $0; sub(/^[0-9a-f]+ [ *]/, "", file)
    if (want[file] != $1) print file tab $1 tab want[file] }
' "$entries" "$computed")
if [ -n "$changed" ]; then
  while IFS="$tab" read -r file actual sum; do
    fail "$file" "changed: its SHA-256 is $actual, the manifest says $sum"
  done <<EOF_CHANGED
$changed
EOF_CHANGED
fi

# Every query, through every solver.
while IFS="$tab" read -r file sum expected; do
  [ -n "$expected" ] && [ -f "$file" ] || continue
  queries=$((queries + 1))
  for solver in $have; do
    case $solver in
      z3) answer=$(z3 -T:"$timeout" "$file" 2>&1 | head -n 1) ;;
      cvc5) answer=$(cvc5 --tlimit="${timeout}000" "$file" 2>&1 | head -n 1) ;;
      *) answer=$("$solver" "$file" 2>&1 | head -n 1) ;;
    esac
    if [ "$answer" = "$expected" ]; then
      :
    elif [ "$answer" = sat ] || [ "$answer" = unsat ]; then
      fail "$file" "$solver answers $answer, the manifest expects $expected"
    elif [ "$solver" = z3 ]; then
      fail "$file" "z3 could not confirm $expected (it said: $answer)"
    else
      echo "note $file: $solver could not decide ($answer); z3's answer stands"
    fi
  done
done < "$entries"

echo "checked $files files and $queries queries with:$have"
echo "manifest.json SHA-256: $($hasher manifest.json | cut -d ' ' -f 1) (compare it with the one published with the bundle)"
if [ "$failures" -gt 0 ]; then
  echo "recheck: $failures problem(s) found"
  exit 1
fi
echo "recheck: every hash matches and every solver agrees"
"#;
