"""What the page's inputs accept: the limits of a text field and an uploaded file, and the label
dropdown's "no label" choice. Plain values, so that anything may read them without loading gradio."""

# At most this many characters per text field and per file cell. The NLI model reads 512
# tokens (about 2,000 characters of English) per pair, so longer text only costs memory and
# time before the engine truncates it.
MAX_TEXT_CHARS = 2_000
MAX_GOLD_ANSWERS = 50
MAX_FILE_ROWS = 100_000
# More columns than any answer file has: their names would fill four dropdowns on the page.
MAX_FILE_COLUMNS = 1_000
NO_LABEL = "(no label column)"
