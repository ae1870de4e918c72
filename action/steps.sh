#!/usr/bin/env bash
# The steps of the scorecard GitHub Action (action.yml), one function each, so that they can be
# run and tested outside a runner: tests/test_action.py calls them in a temporary git repository
# with the variables a runner sets (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_STEP_SUMMARY,
# GITHUB_OUTPUT, RUNNER_TEMP). Inputs arrive as INPUT_* variables, as the action maps them.
set -uo pipefail

root="${INPUT_ROOT:-.}"
out_dir="${RUNNER_TEMP:-/tmp}/scorecard"
mkdir -p "$out_dir"
strict=()
[ "${INPUT_STRICT:-false}" = "true" ] && strict=(--strict)

output() {  # name value: a step output (GITHUB_OUTPUT), one line each
  if [ -n "${GITHUB_OUTPUT:-}" ]; then printf '%s=%s\n' "$1" "$2" >> "$GITHUB_OUTPUT"; fi
}

summary() {  # append stdin to the job summary
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >> "$GITHUB_STEP_SUMMARY"; else cat >/dev/null; fi
}

step_validate() {
  # Annotations on the pull request's files (and the full findings in the log); the exit status
  # is kept as an output, so the summary and the diff are written before the action fails.
  scorecard validate --root "$root" --format github "${strict[@]}"
  local status=$?
  output validate-status "$status"
  if [ "${INPUT_SARIF:-false}" = "true" ]; then
    scorecard validate --root "$root" --format sarif > "$out_dir/scorecard.sarif" || true
    output sarif-file "$out_dir/scorecard.sarif"
  fi
  if [ "$status" -eq 0 ]; then
    echo "**scorecard validate:** no errors${strict:+ (strict: no warnings either)}." | summary
  else
    # The findings themselves (the first 20 and a count), every ledger text inert in a code span.
    scorecard validate --root "$root" --format markdown "${strict[@]}" | summary
  fi
  return 0
}

step_diff() {
  # On a pull request: what it changes, compared with the commit it branched from.
  [ "${GITHUB_EVENT_NAME:-}" = "pull_request" ] || [ "${GITHUB_EVENT_NAME:-}" = "pull_request_target" ] || return 0
  local base
  base=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pull_request"]["base"]["sha"])' \
         "${GITHUB_EVENT_PATH:?}") || { echo "scorecard: no pull_request.base.sha in the event" >&2; return 1; }
  local file="$out_dir/scorecard-diff.md"
  # At most 65,000 characters: the comment a later step posts from diff-file must stay under GitHub's 65,536.
  if ! scorecard diff --root "$root" --merge-base "$base" HEAD --format markdown --max-chars 65000 > "$file" \
       2> "$out_dir/diff.err"; then
    { echo "**scorecard diff** could not compare with the base:"; echo; echo '~~~~~~~~'; tr -d '~' < "$out_dir/diff.err"; echo '~~~~~~~~'; } > "$file"
  fi
  summary < "$file"
  output diff-file "$file"
}

step_build() {
  [ "${INPUT_BUILD:-false}" = "true" ] || return 0
  local site="$out_dir/site"
  local stamp
  stamp=$(git -C "$root" log -1 --format=%ct 2>/dev/null || true)
  local extra=()
  [ "${INPUT_HISTORY:-false}" = "true" ] && extra+=(--history)
  if ! SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$stamp}" scorecard build --root "$root" --out "$site" \
       "${strict[@]}" "${extra[@]}" 2> "$out_dir/build.err"; then
    cat "$out_dir/build.err" >&2
    # A refusal shows in the job summary, not only the log (any tilde removed, so no text can close the fence).
    { echo "**scorecard build** refused:"; echo; echo '~~~~~~~~'; tr -d '~' < "$out_dir/build.err" | head -c 60000
      echo; echo '~~~~~~~~'; } | summary
    return 1
  fi
  output site "$site"
}

step_verdict() {
  # Last: fail the job if validate failed, after the summary, diff and SARIF are written.
  local status="${VALIDATE_STATUS:-0}"
  if [ "$status" != "0" ]; then
    echo "scorecard: validate found problems (exit $status)" >&2
    return 1
  fi
}

"step_$1"
