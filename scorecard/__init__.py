"""scorecard: a claims ledger and scorecard static-site generator."""

__version__ = "0.1.0"
