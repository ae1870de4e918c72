"""The GitHub workflow `scorecard init` writes: pull requests validated, the site built and published from the
default branch, every action pinned to a commit, no expression inside a shell.

The pins are one table (ACTIONS), shared with action.yml and docs/examples/scorecard-ledger.yml, which
tests/test_workflow.py checks against it; each is the newest release of the action's own repository, on a
supported runtime, referenced by the commit its tag names (`git rev-parse vX.Y.Z^{commit}`).

Lazy import: core.git, only to ask a local checkout scorecard was installed from for its remote.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from .. import DISTRIBUTION, __version__

# action -> (commit, release): keep current with Dependabot (docs/recipes.md)
ACTIONS = {
    "actions/checkout": ("3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
    "actions/setup-python": ("5fda3b95a4ea91299a34e894583c3862153e4b97", "v7.0.0"),
    "actions/upload-pages-artifact": ("fc324d3547104276b827a68afc52ff2a11cc49c9", "v5.0.0"),
    "actions/deploy-pages": ("cd2ce8fcbc39b97be8ca5fce6e763baed58fa128", "v5.0.0"),
    "github/codeql-action/upload-sarif": ("8aad20d150bbac5944a9f9d289da16a4b0d87c1e", "v4.36.2"),
}


def uses(action: str) -> str:
    """`action@commit # release`, as a step's uses: line ends."""
    commit, release = ACTIONS[action]
    return f"{action}@{commit}  # {release}"


@dataclass(frozen=True)
class Origin:
    """Where the running scorecard came from, as the files init writes install it: pip's requirement, pre-commit's
    repository and commit where it came from git (else None), and what the user must check ('' when nothing)."""

    spec: str
    note: str = ""
    repo: str | None = None
    rev: str | None = None


_HTTPS = re.compile(r"https://[\w.:/~+-]+")  # no credentials, no @ (pip splits the revision at the last @)
_SSH = re.compile(r"(?:ssh://)?git@[\w.-]+(?::\d+)?[:/][\w./~+-]+")  # the git user: no password in it


def origin(direct_url: str | None, version: str = __version__) -> Origin:
    """The Origin of a scorecard installed as direct_url (its direct_url.json, PEP 610) says.

    Absent: from a package index, the version pin. A git URL and commit: that commit. A local checkout: its
    origin remote, where that is https or ssh without credentials, the commit is on the remote and the tree is
    clean; otherwise (a local file, a checkout that is not so) the version pin with a note: neither the workflow
    nor pre-commit can reach the user's disk.
    """
    if direct_url is None:
        return Origin(f"{DISTRIBUTION}=={version}")
    try:
        found = json.loads(direct_url)
    except (ValueError, RecursionError):
        found = {}
    found = found if isinstance(found, dict) else {}
    vcs, url, sub = found.get("vcs_info"), str(found.get("url", "")), str(found.get("subdirectory", ""))
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and re.fullmatch(r"[0-9a-f]{40}", str(vcs.get("commit_id"))) \
            and _HTTPS.fullmatch(url) and re.fullmatch(r"([\w.-]+/?)*", sub):
        fragment = f"#subdirectory={sub.strip('/')}" if sub else ""
        return Origin(f"{DISTRIBUTION} @ git+{url}@{vcs['commit_id']}{fragment}", "", url if not sub else None,
                      vcs["commit_id"] if not sub else None)
    checkout = _checkout(url) if "dir_info" in found else None
    if checkout is not None:
        remote, commit = checkout
        pip_url = remote if remote.startswith("https://") else "ssh://" + remote.replace(":", "/", 1) \
            if not remote.startswith("ssh://") else remote
        return Origin(f"{DISTRIBUTION} @ git+{pip_url}@{commit}", "", remote, commit)
    where = "a local checkout" if "dir_info" in found else "a local file"
    return Origin(f"{DISTRIBUTION}=={version}", f"scorecard {version} was installed from {where}, which neither the "
                  f"workflow nor pre-commit can reach: both install {DISTRIBUTION}=={version} from the package "
                  "index. Check the install lines of the workflow and of .pre-commit-config.yaml.")


def _checkout(url: str) -> tuple[str, str] | None:
    """(the origin remote's URL, HEAD's commit) of the checkout at a file:// URL, where the commit is on the remote
    (a remote-tracking branch holds it), the tracked files are as committed, and the URL carries no credentials."""
    from urllib.parse import unquote, urlsplit

    from ..core import git

    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    folder = Path(unquote(parts.path))
    try:
        remote = git.run(["remote", "get-url", "origin"], folder).decode().strip()
        commit = git.run(["rev-parse", "HEAD"], folder).decode().strip()
        holding = git.run(["branch", "-r", "--contains", commit], folder).decode().split()
        git.run(["diff-index", "--quiet", "HEAD", "--"], folder)  # exit 1 (GitError) when a tracked file changed
    except (git.GitError, OSError, UnicodeDecodeError):
        return None
    if not (_HTTPS.fullmatch(remote) or _SSH.fullmatch(remote)) or not holding \
            or not re.fullmatch(r"[0-9a-f]{40}", commit):
        return None
    return remote, commit


def install_spec(direct_url: str | None = None, version: str = __version__) -> tuple[str, str]:
    """(what pip installs, a note for the user or '') for the scorecard direct_url says (origin())."""
    found = origin(direct_url, version)
    return found.spec, found.note


def running_origin() -> Origin:
    """origin() of the scorecard this process runs."""
    try:
        direct_url = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return origin("{}")  # run from a source tree that was never installed
    return origin(direct_url)


def running_install_spec() -> tuple[str, str]:
    """install_spec for the scorecard this process runs."""
    found = running_origin()
    return found.spec, found.note


HEAD = """# .github/workflows/{name}, written by `scorecard init` (scorecard {version}).
# Pull requests{and_default} run the same two scorecard lines (validate --strict, then
# build --strict --history into a temporary folder), so a pull request that passes can be published.
{publishing}# --strict refuses warnings (the example text scorecard new wrote, a suspect claim) but not a
# source or an artifact that aged while committed unchanged, which the site and the summary show.
# A pull request from a fork runs with a read-only token and no secrets.
# The actions are pinned to commits (the release in the comment); docs/recipes.md has a Dependabot
# configuration that keeps them current.
{check}name: {title}
on:
  pull_request:
{push}permissions: {{}}  # none by default: each job asks for what it needs
{defaults}jobs:
"""

PUBLISHING = """# Pull requests also say what they change in the job summary; the default branch publishes the
# build to GitHub Pages (Settings > Pages > Source: GitHub Actions).
"""
NOT_PUBLISHING = """# Pull requests also say what they change in the job summary. This workflow does not publish:
# the repository publishes GitHub Pages already, and a repository has one Pages site. Found:
#   {pages}
# To put the scorecard beside your site, add the build line to the job that builds the site, with
# --out <the site's folder>/scorecard (docs/getting-started.md, "A site you publish already").
"""

VALIDATE = """  validate:
    name: Validate the ledger
    if: github.event_name == 'pull_request'
    runs-on: ubuntu-latest
    timeout-minutes: 15
    permissions:
      contents: read  # check out the pull request
    concurrency:
      group: ${{{{ github.workflow }}}}-${{{{ github.ref }}}}
      cancel-in-progress: true
    steps:
      - uses: {checkout}
        with:
          fetch-depth: 0  # the merge base, for the diff
          persist-credentials: false
{touched}{guarded}"""

# A ledger in a subfolder: the pull-request job always runs (a required check never waits for a job a path filter
# left out) and checks nothing when the pull request changes neither the ledger nor this workflow.
TOUCHED = """      - name: Does the pull request change the ledger?
        id: touched
        env:
          BASE_REF: ${{{{ github.base_ref }}}}
        run: |
          if git diff --quiet "origin/$BASE_REF...HEAD" -- . ":(top).github/workflows/{name}"; then
            echo "changed=false" >> "$GITHUB_OUTPUT"
            echo "Neither {ledger}/ nor this workflow changed: nothing to check." >> "$GITHUB_STEP_SUMMARY"
          else
            echo "changed=true" >> "$GITHUB_OUTPUT"
          fi
"""

REVIEW_STEPS = """      - uses: {setup_python}
        with:
          python-version: "3.12"
      - name: Install scorecard
        run: python -m pip install --disable-pip-version-check -q "{spec}"
      - name: What the pull request changes, in the job summary
        env:
          BASE_REF: ${{{{ github.base_ref }}}}
        run: scorecard diff --merge-base "origin/$BASE_REF" HEAD --format markdown >> "$GITHUB_STEP_SUMMARY"
{check_steps}"""

PUBLISH = """  publish:
    name: Build and publish the site
    if: github.event_name == 'push' && github.ref_name == github.event.repository.default_branch
    runs-on: ubuntu-latest
    timeout-minutes: 15
    permissions:
      contents: read  # check out the default branch
      pages: write  # deploy to GitHub Pages
      id-token: write  # the deployment's OIDC token (actions/deploy-pages)
    concurrency:
      group: pages
      cancel-in-progress: false
    environment:
      name: github-pages
      url: ${{{{ steps.deploy.outputs.page_url }}}}
    steps:
      - uses: {checkout}
        with:
          fetch-depth: 0  # the whole history, for --history's timelines, changes page and feed
          persist-credentials: false
      - uses: {setup_python}
        with:
          python-version: "3.12"
      - name: Install scorecard
        run: python -m pip install --disable-pip-version-check -q "{spec}"
{check_steps}      - uses: {upload_pages}
        with:
          path: ${{{{ runner.temp }}}}/site
      - id: deploy
        uses: {deploy_pages}
"""


# The check both jobs run, line for line (issue 43 item 3): what passes review is what publishes.
CHECK_STEPS = """      - name: Validate (annotations on the changed files; every finding in the log)
        run: scorecard validate --strict --format github
      - name: Build (dated by the commit, so the site is the same on every rebuild)
        run: SOURCE_DATE_EPOCH="$(git log -1 --format=%ct)" scorecard build --strict --history --out "$RUNNER_TEMP/site"
"""


def _guarded(steps: str, condition: str) -> str:
    """steps (a job's step list as text) with `if: condition` in each step."""
    return re.sub(r"^(      - [^\n]*\n)", lambda m: f"{m.group(1)}        if: {condition}\n", steps, flags=re.M)


def workflow_text(spec: str, note: str = "", ledger: str = "", pages: str = "", name: str = "scorecard-ledger.yml") \
        -> str:
    """The workflow .github/workflows/NAME, installing spec (a pip requirement); note, if any, as a CHECK comment at
    its top. For a ledger in a subfolder (ledger, a repo.LEDGER_PATH) its steps run there, the publish runs on a push
    that changes it, and the pull-request job checks nothing when it is untouched. Where pages says what publishes
    GitHub Pages already, no publish job."""
    actions = {"checkout": uses("actions/checkout"), "setup_python": uses("actions/setup-python"),
               "upload_pages": uses("actions/upload-pages-artifact"), "deploy_pages": uses("actions/deploy-pages")}
    review = REVIEW_STEPS.format(spec=spec, check_steps=CHECK_STEPS, **actions)
    touched = TOUCHED.format(name=name, ledger=ledger) if ledger else ""
    push = "" if pages else "  push:\n" if not ledger else \
        f"  push:\n    paths:  # the publish: only when the ledger or this workflow changes\n" \
        f"      - \"{ledger}/**\"\n      - \".github/workflows/{name}\"\n"
    head = HEAD.format(
        name=name, version=__version__, check=f"# CHECK: {note}\n" if note else "", push=push,
        title=f"scorecard ({ledger})" if ledger else "scorecard",
        and_default="" if pages else " and the default branch",
        publishing=NOT_PUBLISHING.format(pages=pages) if pages else PUBLISHING,
        defaults=f"defaults:\n  run:\n    working-directory: \"{ledger}\"  # the ledger's folder\n" if ledger else "")
    validate = VALIDATE.format(touched=touched, guarded=_guarded(review, "steps.touched.outputs.changed == 'true'")
                               if ledger else review, **actions)
    return head + validate + ("" if pages else PUBLISH.format(spec=spec, check_steps=CHECK_STEPS, **actions))
