"""What the tests know of the tiny models they build (capqa/dev/offline_models.py)."""

# Known probabilities for the zero-weight classifier: CAP then follows from the formula alone.
KNOWN_PROBABILITIES = {"entailment": 0.62, "neutral": 0.27, "contradiction": 0.11}
# A label order unlike both the canonical one and the cross-encoder's.
PERMUTED_ID2LABEL = {0: "NEUTRAL", 1: "Contradiction", 2: "entailment"}

# Tokens in the NLI models' vocabulary, learnt from the correctness sample's texts: a
# real sentence is then about a third as many tokens as with the 400 of the default corpus
# (82 instead of 223 per pair of that sample), and scoring it several times faster.
NLI_VOCAB_SIZE = 2000

# A model that ships its own code: its config names classes of the folder's own Python files
# (auto_map), which transformers runs only with trust_remote_code=True.
_REMOTE_CONFIG = '''from transformers import DebertaV2Config


class CapToyConfig(DebertaV2Config):
    model_type = "cap_toy_nli"
'''
_REMOTE_MODEL = '''from transformers import DebertaV2ForSequenceClassification

from .configuration_cap_toy import CapToyConfig


class CapToyForSequenceClassification(DebertaV2ForSequenceClassification):
    config_class = CapToyConfig
'''


def build_remote_code_model(folder, nli_folder):
    """``nli_folder`` (a tiny DeBERTa NLI model) copied to ``folder`` as a model with its own code."""
    import json
    import shutil

    shutil.copytree(nli_folder, folder)
    (folder / "configuration_cap_toy.py").write_text(_REMOTE_CONFIG)
    (folder / "modeling_cap_toy.py").write_text(_REMOTE_MODEL)
    config = json.loads((folder / "config.json").read_text())
    config.update(model_type="cap_toy_nli", architectures=["CapToyForSequenceClassification"],
                  auto_map={"AutoConfig": "configuration_cap_toy.CapToyConfig",
                            "AutoModelForSequenceClassification": "modeling_cap_toy.CapToyForSequenceClassification"})
    (folder / "config.json").write_text(json.dumps(config, indent=2))
    return folder
