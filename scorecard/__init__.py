"""scorecard: a claims ledger and scorecard static-site generator."""

__version__ = "0.1.0"
DISTRIBUTION = "scorecard-ledger"  # the name to pip install; the package and the command are `scorecard`
