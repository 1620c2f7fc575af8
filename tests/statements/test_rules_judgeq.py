"""Prompts that ask for a verdict on a statement of their own (branch judgeq): a claim before "True or
false?" or "Is this claim supported?", after "Is the following statement correct?", an inference's
hypothesis, "the following sentence" quoted, verdict words (supported, refutes, fiction, entailment,
contradiction, not enough info), an answer that says the question's own predicate, a labelled option
quoted when it is said to be other than true; and the check's answer_missing on a verdict label.
Made-up rows in the styles of FEVER, RTE/SNLI/MNLI, BoolQ and ComVE showing each mechanism."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement
from capqa.statements.rules.judged import verdict

CASES = [
    ('Claim: Nikolaj Coster-Waldau worked with the Fox Broadcasting Company. Is this claim supported, refuted or not enough info?',
     'Supported',
     'Nikolaj Coster-Waldau worked with the Fox Broadcasting Company.'),
    ('Claim: Adrienne Bailon is an accountant. Is this claim supported, refuted or not enough info?',
     'REFUTES',
     'Adrienne Bailon is not an accountant.'),
    ('Claim: The Eiffel Tower is located in Berlin. Supported, refuted, or not enough info?',
     'Refuted. The Eiffel Tower is in Paris.',
     'The Eiffel Tower is not located in Berlin. The Eiffel Tower is in Paris.'),
    ('Claim: Tilda Swinton is a vegan. Supported, refuted, or not enough info?',
     'Not enough info',
     'There is not enough information to tell whether Tilda Swinton is a vegan.'),
    ('Premise: Dana Reeve, the widow of the actor Christopher Reeve, has died of lung cancer at age 44. Hypothesis: Christopher Reeve had an accident. Does the premise entail the hypothesis?',
     'No',
     'Premise: Dana Reeve, the widow of the actor Christopher Reeve, has died of lung cancer at age 44. The premise does not entail that Christopher Reeve had an accident.'),
    ('Premise: A man inspects the uniform of a figure in some East Asian country. Hypothesis: The man is sleeping. Does the premise entail the hypothesis? Answer entailment, neutral or contradiction.',
     'contradiction',
     'Premise: A man inspects the uniform of a figure in some East Asian country. The premise contradicts that the man is sleeping.'),
    ('Premise: A soccer game with multiple males playing. Hypothesis: Some men are playing a sport. Does the premise entail the hypothesis?',
     'Yes, the premise entails the hypothesis.',
     'Premise: A soccer game with multiple males playing. The premise entails that some men are playing a sport.'),
    ('Premise: Conceptually cream skimming has two basic dimensions - product and geography. Hypothesis: Product and geography are what make cream skimming work. Is the hypothesis entailed, neutral, or contradicted?',
     'neutral',
     'Premise: Conceptually cream skimming has two basic dimensions - product and geography. The premise neither entails nor contradicts that product and geography are what make cream skimming work.'),
    ('Sentence 1: Yunus founded the Grameen Bank in 1976. Sentence 2: The Grameen Bank was founded by Yunus. Does sentence 1 entail sentence 2?',
     'entailment',
     'Sentence 1: Yunus founded the Grameen Bank in 1976. Sentence 1 entails that the Grameen Bank was founded by Yunus.'),
    ('Which of these two sentences is against common sense? Sentence A: "He put a turkey into the fridge." Sentence B: "He put an elephant into the fridge."',
     'Sentence B',
     'The sentence "He put an elephant into the fridge" is against common sense.'),
    ('Does the following sentence make sense? "He poured orange juice on his cereal."',
     'Yes',
     'The sentence "He poured orange juice on his cereal" makes sense.'),
    ('The sun is a planet. True or false?',
     'false.',
     'The sun is not a planet.'),
    ('Is the following statement correct? Water boils at 50 degrees Celsius at sea level.',
     'No — water boils at 100 degrees Celsius at sea level.',
     'Water does not boil at 50 degrees Celsius at sea level. Water boils at 100 degrees Celsius at sea level.'),
    ('Is it plausible that a person could swim across the Atlantic Ocean in one day?',
     'It is not plausible because the ocean is thousands of kilometres wide.',
     'It is not plausible that a person could swim across the Atlantic Ocean in one day, because the ocean is thousands of kilometres wide.'),
    ('Q: Is Mount Everest the tallest mountain above sea level? A: yes or no',
     'yes',
     'Mount Everest is the tallest mountain above sea level.'),
    ('Is the following statement true or false? Penguins can fly.',
     'The statement is false. Penguins are flightless birds.',
     'Penguins cannot fly. Penguins are flightless birds.'),
    ('True or false: The Great Wall of China is visible from space with the naked eye.',
     "That's a common myth, but it's false: the wall is too narrow to see from orbit without aid.",
     'The Great Wall of China is not visible from space with the naked eye. The wall is too narrow to see from orbit without aid.'),
    ('Is the following argument valid? All dogs are animals. Rex is a dog. Therefore Rex is an animal.',
     'valid',
     'The argument "All dogs are animals. Rex is a dog. Therefore Rex is an animal." is valid.'),
    # a "no" negates the verdict's copula, never a verb inside the quote; single quotes are quotes too
    ("Is the following sentence grammatical? 'The books is on the table.'",
     'No',
     'The sentence "The books is on the table." is not grammatical.'),
    ('Is the following argument valid? All cats are animals. Tom is an animal. So Tom is a cat.',
     'invalid',
     'The argument "All cats are animals. Tom is an animal. So Tom is a cat." is invalid.'),
    # a sentence that only says the verdict again goes
    ('Is the following statement correct? The sun is a planet.',
     'No, it is not.',
     'The sun is not a planet.'),
    ('True or False: Lightning never strikes the same place twice.',
     'False, lightning often strikes tall structures repeatedly.',
     'It is not true that lightning never strikes the same place twice. Lightning often strikes tall structures repeatedly.'),
    ('Is the following statement correct? The heart has four chambers.',
     "Yes, that's correct.",
     'The heart has four chambers.'),
    ('Claim: Stranger Things is set in Bloomington, Indiana. Is this claim supported or refuted?',
     'It is refuted; the series is set in the fictional town of Hawkins, Indiana.',
     'Stranger Things is not set in Bloomington, Indiana. The series is set in the fictional town of Hawkins, Indiana.'),
    ('Premise: Two women are embracing while holding to go packages. Hypothesis: The sisters are hugging goodbye. Does the premise entail the hypothesis? Options: yes, it is not possible to tell, no',
     'it is not possible to tell',
     'Premise: Two women are embracing while holding to go packages. The premise neither entails nor contradicts that the sisters are hugging goodbye.'),
    ('Statement: Sound travels faster in water than in air. Is this statement true or false?',
     'True',
     'Sound travels faster in water than in air.'),
    ('True or false: Humans have 206 bones. Explain briefly.',
     'True — an adult human skeleton has 206 bones, though babies are born with more.',
     'Humans have 206 bones. An adult human skeleton has 206 bones, though babies are born with more.'),
]


@pytest.mark.parametrize("question, answer, expected", CASES)
def test_judged_prompts(question, answer, expected):
    assert rule_statement(question, answer) == expected


@pytest.mark.parametrize("answer, kind", [
    ("REFUTES", "false"), ("Fiction. Goldfish remember.", "false"), ("The statement is false.", "false"),
    ("it is not possible to tell", "unsettled"), ("Not enough info", "unsettled"), ("contradiction", "contradicts"),
    ("That's a common myth, but it's false: no.", "false"), ("not plausible because", "false"), ("Supported", "true"),
])
def test_verdict_words(answer, kind):
    assert verdict(answer).kind == kind


def test_a_verdict_label_is_no_missing_answer():
    question = "Claim: Adrienne Bailon is an accountant. Is this claim supported, refuted or not enough info?"
    assert "answer_missing" not in statement_issues(question, "REFUTES", "Adrienne Bailon is not an accountant.")


def test_a_wh_question_about_a_true_statement_keeps_the_option_as_the_claim():
    question = "Which statement is true? A) The sun is a star. B) The moon is a planet."
    assert rule_statement(question, "A") == "The sun is a star."
    assert rule_statement("Which statement is false? A) The sun is a star. B) The moon is a planet.", "B") == (
        'The statement "The moon is a planet" is false.')


def test_a_hypothesis_opening_with_a_keeps_no_capital():
    question = ("Premise: A person on a horse jumps over a broken down airplane. Hypothesis: A person is outdoors. "
                "Does the premise entail the hypothesis?")
    assert rule_statement(question, "Yes") == ("Premise: A person on a horse jumps over a broken down airplane. "
                                               "The premise entails that a person is outdoors.")
