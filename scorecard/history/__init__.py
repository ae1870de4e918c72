"""The ledger through time: each dimension at every commit, and how a change is said.

walk replays git's first-parent history onto the records; timeline tells it (history.json,
`scorecard history`); wording is the one voice of a change, shared by diff, the pages and the feed.
May import: core, measure, ledger.
"""
