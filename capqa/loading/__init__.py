"""Loading Hugging Face models for any engine: devices and dtypes, ``from_pretrained`` with errors
that name the way forward, model-folder checks, token windows, padding batches, the Hub probe."""
