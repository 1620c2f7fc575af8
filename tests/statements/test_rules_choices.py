"""Multiple-choice formats of benchmarks nobody tuned on (branch choices): options whose bracket touches
their text ("A)12 B)15"), numbered options after the question ("1. x 2. y" and an answer "3"), bulleted
options after a label ("Choices: - x - y"), a letter with its option in brackets, a worked answer whose last
sentence names the option by its letter ("So the answer is (C).", "X, so B."), a reasoning's announcement
("Let's think."), and a question of truth whose capital "TRUE" the parse makes a noun.

Made-up rows that show each mechanism; none is a corpus row."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement
from capqa.statements.rules.context import split_question

_GAS = "Which gas do plants absorb from the atmosphere for photosynthesis? A) oxygen B) nitrogen C) carbon dioxide"


@pytest.mark.parametrize("question, answer, statement", [
    # a bracket that touches its option's text, in the prompt and in the answer
    ("If 2x - 4 = 10, what is the value of x? A)5 B)7 C)12 D)14", "B)7", "If 2x - 4 = 10, the value of x is 7."),
    (_GAS, "C)carbon dioxide, since plants make sugar from it.",
     "The gas plants absorb from the atmosphere for photosynthesis is carbon dioxide, since plants make sugar from it."),
    ("What phenomenon makes global winds blow northeast to southwest or the reverse in the northern hemisphere? "
     "A)coriolis effect B)muon effect C)centrifugal effect D)tropical effect", "A",
     "The phenomenon that makes global winds blow northeast to southwest or the reverse in the northern hemisphere "
     "is coriolis effect."),
    # numbered options after the question, before an "Answer:" cue
    ("Which organelle is known as the powerhouse of the cell?\n1. nucleus\n2. ribosome\n3. mitochondrion\n"
     "4. Golgi apparatus\nAnswer:", "3", "Mitochondrion is known as the powerhouse of the cell."),
    # bulleted options after a label
    ("Vertebrates are a subphylum of which phylum?\nChoices:\n- arthropods\n- chordates\n- mollusks\n- annelids",
     "chordates", "Vertebrates are a subphylum of chordates."),
    ("What is the name for a substance that speeds up a chemical reaction without being consumed?\nChoices:\n"
     "- catalyst\n- reactant\n- product\n- inhibitor", "Sure! The answer is **catalyst**.",
     "The name for a substance that speeds up a chemical reaction without being consumed is a catalyst."),
    # a worked answer ending in the option's letter: the working, then the option in the frame
    (_GAS, "Plants take in carbon dioxide through their stomata. So the answer is (C).",
     "Plants take in carbon dioxide through their stomata. The gas plants absorb from the atmosphere for "
     "photosynthesis is carbon dioxide."),
    ("The writer's attitude towards online shopping is ___. A) critical B) supportive C) indifferent D) doubtful",
     "The writer seems supportive, so B.",
     "The writer seems supportive. The writer's attitude towards online shopping is supportive."),
    ("If f(x) = 2x^2 + 1, what is f(3)? Answer Choices: (A) 13 (B) 19 (C) 37 (D) 7",
     "f(3) = 2*9 + 1 = 19. The answer is (B).", "f(3) = 2*9 + 1 = 19. If f(x) = 2x^2 + 1, f(3) is 19."),
    # a letter with its option in brackets
    ("Which gas do plants absorb? A) oxygen B) nitrogen C) carbon dioxide", "C (carbon dioxide), through the stomata",
     "The gas plants absorb is carbon dioxide, through the stomata."),
    # several letters are their options joined; a letter said to be correct is its option, the reason kept
    ("Which of the following are mammals? A) whale B) shark C) bat D) trout", "A and C", "Whale and bat are mammals."),
    ("What is the SI unit of force? A) joule B) newton C) watt D) pascal",
     "B is the correct answer because force is measured in newtons.",
     "The SI unit of force is newton because force is measured in newtons."),
    # a key and then a sentence that does not say the option again: the option, and a claim of its own
    ("What is the SI unit of force? A) joule B) newton C) watt", "Answer: B. Force is measured in newtons.",
     "The SI unit of force is the newton. Force is measured in newtons."),
    # a conclusion with the letter and its option's text
    ("If 5x = 35, what is x? A) 5 B) 6 C) 7 D) 8", "Dividing both sides by 5 gives 7, so the answer is C) 7.",
     "Dividing both sides by 5 gives 7. If 5x = 35, x is 7."),
    # a reasoning's announcement is no claim
    ("Which of the following can be inferred from the statements above? A) Some doctors are not scientists. "
     "B) All scientists are doctors. C) No doctor is a scientist. D) Some scientists are doctors.",
     "Let's think. Only D follows. The answer is D.", "Only D follows. Some scientists are doctors."),
    # "TRUE" in capitals still asks which statement holds
    ("Which of the following is TRUE according to the passage? A) Jack never visited Paris. B) Jack's sister is a "
     "doctor. C) Jack works at a bank. D) Jack lives alone.", "C", "Jack works at a bank."),
])
def test_choice_formats_state_the_option(question, answer, statement):
    assert rule_statement(question, answer) == statement
    assert not statement_issues(question, answer, statement)


@pytest.mark.parametrize("question, options", [
    ("Which is it? 1. a cat 2. a dog", {"1": "a cat", "2": "a dog"}),
    ("Pick one: - red - blue - green", {"a": "red", "b": "blue", "c": "green"}),
    ("Solve it. A)12 B)15", {"a": "12", "b": "15"}),
    # a list before the question, or a count or a dash inside a sentence, is no option
    ("Follow these steps: 1. boil water. 2. add tea. How long should it steep?", {}),
    ("What is 10 - 3 - 2?", {}),
    ("There are 2. apples here. 3. pears. Which is more?", {}),
])
def test_unlettered_options_only_after_the_question(question, options):
    assert split_question(question).options == options


def test_a_key_restating_its_option_stays_whole():
    assert rule_statement("Suppose real GDP increases. We can conclude that\nA. prices are higher.\nB. employment is "
                          "higher.", "B. employment is not higher.") == (
        "Suppose real GDP increases. We can conclude that employment is not higher.")


def test_a_list_of_letters_is_no_worked_conclusion():
    assert rule_statement("Which of the following are mammals? A) whale B) shark C) bat D) trout", "A, C") == (
        "Whale and bat are mammals.")


def test_a_final_label_without_a_colon_is_the_final_answer():
    assert rule_statement("Who wrote Hamlet?", "Shakespeare wrote it. The answer is Shakespeare.") == (
        "Shakespeare wrote it. Shakespeare wrote Hamlet.")


def test_a_bracket_before_a_comma_keys_no_option():
    """"(C), since ..." is a letter and its reason: the touching bracket's reading ("B)7") needs a word or an
    amount after it, or the statement would open with the reason's comma."""
    assert not rule_statement(_GAS, "(C), since plants make sugar from it.").startswith(",")
