"""Stand-in trees for the Hub artifacts the tests build and publish."""

import json


def stand_in_repo(root):
    """A minimal tree with the names the Space is assembled from."""
    files = {
        "space_card/README.md": "---\nsdk: gradio\napp_file: app.py\n---\n# CAP\n",
        "app.py": "import cap\n",
        "cap_metric.py": "# the metric\n",
        "monotonicity.py": "# the diagnostic\n",
        "requirements.txt": "evaluate==0.4.6\n",
        "capqa/__init__.py": "",
        "capqa/common/constants.py": "ALPHA = 0.85\n",
        "capqa/plus/params/cap_plus.json": "{}\n",
        "capqa/__pycache__/constants.cpython-311.pyc": "bytecode",
        "data/paper_scores.csv": "split,dataset,label,cap\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def trained_model_folder(root, summary=None):
    """A statement model's folder as training leaves it: weights, config, tokenizer, card, summary."""
    root.mkdir(parents=True)
    for name in ("config.json", "generation_config.json", "tokenizer_config.json", "special_tokens_map.json"):
        (root / name).write_text("{}")
    (root / "model.safetensors").write_bytes(b"\0" * 64)
    (root / "spiece.model").write_bytes(b"\1" * 16)
    (root / "README.md").write_text("# card\n")
    (root / "training_summary.json").write_text(json.dumps(summary or {"base_model": "google/mt5-small"}))
    return root


# A commit id of a model in a stand-in Hugging Face cache.
CACHED_COMMIT = "0123456789abcdef0123456789abcdef01234567"


def fake_hub_cache(root, model_folder, repo_id="org/nli-tiny", commit=CACHED_COMMIT, ref="main"):
    """A Hugging Face cache holding ``model_folder`` as ``repo_id`` at ``commit``, ``ref`` pointing at it
    (called again with another commit and ref, the same repo holds both)."""
    import shutil

    repo = root / f"models--{repo_id.replace('/', '--')}"
    shutil.copytree(model_folder, repo / "snapshots" / commit)
    (repo / "refs").mkdir(parents=True, exist_ok=True)
    (repo / "refs" / ref).write_text(commit)
    return root
