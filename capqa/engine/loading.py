"""Loading models and tokenizers from the Hub or a local folder, with errors that say what to do."""


def load_pretrained(loader, name, revision, what, **kwargs):
    """``loader.from_pretrained`` with an error that says how to run offline."""
    try:
        return loader.from_pretrained(name, revision=revision, **kwargs)
    except (OSError, ValueError) as error:
        raise OSError(
            f"Could not load the {what} {name!r} (revision {revision!r}): {error}\n"
            f"Without access to the Hugging Face Hub, pass a local model folder instead of a Hub id, "
            f"or set HF_HUB_OFFLINE=1 to use a copy already in the Hugging Face cache.") from error
