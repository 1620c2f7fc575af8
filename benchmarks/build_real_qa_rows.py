"""Build tests/data/real_qa_answers.csv: real questions and the answers real QA systems gave.

Rows come from two public, human-judged open-QA evaluation sets (see tests/data/README.md):

- NQ301 of Kamalloo et al. 2023 (github.com/ehsk/OpenQA-eval, MIT): every row of
  ``data/NQ301_human.tsv`` (301 NQ-open questions, 1,490 answers, the human judgement), the
  gold answers and the system's name taken from ``data/model_outputs/*.jsonl``;
- EVOUNA of Wang et al. 2023 (github.com/wangcunxiang/QA-Eval, Apache-2.0): the five systems'
  answers to a fixed sample of the questions of ``EVOUNA/NQ.json`` and ``EVOUNA/TQ.json``.

Only data is carried, no code. The sample is deterministic (questions ordered by the SHA-1 of
their text), so rerunning gives the same file:

    python benchmarks/build_real_qa_rows.py OPENQA_EVAL_GIT_DIR QA_EVAL_GIT_DIR [--out PATH]

where the two arguments are git directories of the two repositories (``git --git-dir``).
"""

import argparse
import csv
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator, List

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT = REPO_ROOT / "tests" / "data" / "real_qa_answers.csv"
EVOUNA_QUESTIONS = {"NQ": 260, "TQ": 200}
EVOUNA_SYSTEMS = ("fid", "gpt35", "chatgpt", "gpt4", "newbing")
COLUMNS = ("id", "source", "system", "question", "gold", "answer", "judgement")
GOLD_SEPARATOR = " / "


def git_show(git_dir: str, path: str) -> str:
    return subprocess.run(["git", f"--git-dir={git_dir}", "show", f"HEAD:{path}"], check=True,
                          capture_output=True, text=True).stdout


def _order(question: str) -> str:
    return hashlib.sha1(question.encode("utf-8")).hexdigest()


def nq301_rows(git_dir: str) -> Iterator[Dict[str, str]]:
    """Every judged answer of NQ301, with its gold answers and (where its text is found among
    the systems' outputs for that question) the system that gave it."""
    listing = subprocess.run(["git", f"--git-dir={git_dir}", "ls-tree", "--name-only", "HEAD",
                              "data/model_outputs/"], check=True, capture_output=True, text=True).stdout
    gold: Dict[str, str] = {}
    systems: Dict[tuple, str] = {}
    for path in sorted(listing.split()):
        system = Path(path).stem.replace("NQ301_", "").replace("NQ_", "")
        for line in git_show(git_dir, path).splitlines():
            record = json.loads(line)
            question = record["question"].strip()
            gold.setdefault(question, GOLD_SEPARATOR.join(record["answer"]))
            systems.setdefault((question, str(record["prediction"]).strip()), system)
    lines = git_show(git_dir, "data/NQ301_human.tsv").splitlines()
    for number, line in enumerate(lines[1:], 1):
        fields = line.split("\t")
        question, answer, acceptable = fields[1].strip(), fields[2].strip(), fields[3].strip()
        if not answer:
            continue
        yield {"id": f"NQ301-{number:04d}", "source": "NQ301", "system": systems.get((question, answer), ""),
               "question": question, "gold": gold.get(question, ""), "answer": answer,
               "judgement": {"Yes": "correct", "No": "incorrect"}.get(acceptable, "")}


def evouna_rows(git_dir: str, name: str, count: int) -> Iterator[Dict[str, str]]:
    records = [record for record in json.loads(git_show(git_dir, f"EVOUNA/{name}.json"))
               if not record.get("improper")]
    records.sort(key=lambda record: _order(record["question"]))
    for number, record in enumerate(records[:count], 1):
        for system in EVOUNA_SYSTEMS:
            answer = record.get(f"answer_{system}")
            if not isinstance(answer, str) or not answer.strip():
                continue
            judged = record.get(f"judge_{system}")
            yield {"id": f"EVOUNA-{name}-{number:03d}-{system}", "source": f"EVOUNA-{name}", "system": system,
                   "question": record["question"].strip(), "gold": evouna_golds(record["golden_answer"]),
                   "answer": " ".join(answer.split()),
                   "judgement": "" if judged is None else ("correct" if judged else "incorrect")}


def evouna_golds(cell: str) -> str:
    """EVOUNA's gold answers, which its README says are split with '/', joined by " / " as NQ301's."""
    return GOLD_SEPARATOR.join(part.strip() for part in cell.split("/") if part.strip())


def main(argv: List[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("openqa_eval_git_dir")
    parser.add_argument("qa_eval_git_dir")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    rows = list(nq301_rows(args.openqa_eval_git_dir))
    for name, count in EVOUNA_QUESTIONS.items():
        rows += list(evouna_rows(args.qa_eval_git_dir, name, count))
    with args.out.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    print(f"{len(rows)} rows -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
