"""How often CAP agrees with people: real systems' answers judged correct or incorrect by human
annotators, scored by CAP under the user's options and by lexical baselines, with the agreement
per source, per system and overall (``python -m capqa agreement``; docs/agreement.md).

- ``judged.py``: the judged rows (tests/data/real_qa_answers.csv, or a file like it);
- ``baselines.py``: exact match, token F1 and "contains the gold answer", SQuAD-normalised;
- ``scoring.py``: CAP for the judged rows, a resumable scoring job (``capqa.jobs.scoring``);
- ``verdicts.py``: CAP's verdicts from a threshold never chosen on the rows it judges;
- ``statistics.py``: accuracy and Cohen's kappa with bootstrap CIs clustered by question;
- ``peers.py``: the figures the peers published, with their citations;
- ``card.py``: the card (``agreement_card``, ``run_agreement``); ``report.py``: its tables and plot.
"""
