"""The docs' generated tables and runnable blocks (``python -m capqa docs``): developer tooling, not
shipped in the wheel."""
