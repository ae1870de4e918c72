"""A GitHub workflow's job run by hand, as the runner runs its run: steps (tests/test_workflow.py and the end-to-end
tests): bash -e in the job's working directory, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as files, and a step's
`if: steps.ID.outputs.NAME == 'VALUE'` decided from the outputs the steps before it wrote. A uses: step is skipped
(the checkout is the repository as the test made it); so is the install line unless install is true."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Ran:
    """A run: step that ran: its text, exit status and output."""

    run: str
    returncode: int
    output: str


def run_job(doc: dict, job: str, top: Path, env: dict[str, str], scratch: Path, install: bool = False) -> list[Ran]:
    """Run job's steps until one fails; what ran, in order. scratch holds RUNNER_TEMP and the output files."""
    folder = top / doc.get("defaults", {}).get("run", {}).get("working-directory", ".")
    scratch.mkdir(parents=True, exist_ok=True)
    (scratch / "temp").mkdir(exist_ok=True)
    outputs: dict[str, dict[str, str]] = {}
    ran: list[Ran] = []
    for number, step in enumerate(doc["jobs"][job]["steps"]):
        if not _wanted(step.get("if"), outputs) or "run" not in step or ("pip install" in step["run"] and not install):
            continue
        output = scratch / f"output-{number}"
        output.write_text("")
        step_env = {**env, "RUNNER_TEMP": str(scratch / "temp"), "GITHUB_OUTPUT": str(output),
                    "GITHUB_STEP_SUMMARY": str(scratch / "summary.md"),
                    **{key: "main" for key in step.get("env", {})}}  # BASE_REF: the base branch is main
        proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=folder, env=step_env, capture_output=True,
                              text=True, timeout=600)
        ran.append(Ran(step["run"], proc.returncode, proc.stdout + proc.stderr))
        if "id" in step:
            outputs[step["id"]] = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
        if proc.returncode != 0:
            break
    return ran


def _wanted(condition: str | None, outputs: dict[str, dict[str, str]]) -> bool:
    if condition is None:
        return True
    found = re.fullmatch(r"steps\.([\w-]+)\.outputs\.(\w+) == '(\w+)'", condition)
    assert found, f"a step condition the test cannot decide: {condition}"
    return outputs.get(found[1], {}).get(found[2]) == found[3]
