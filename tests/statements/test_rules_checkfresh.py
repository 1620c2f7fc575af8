"""The check's widened codes for the converter's bad statements on benchmarks nobody tuned on
(issue 31): made-up rows in the styles of ELI5, NarrativeQA, CoQA, QuAC, DROP, BoolQ, SciQ, RACE,
Dolly, Alpaca, HumanEval and bAbI. Each code on the statement the converter made, and a sound
statement for the same pair that it leaves alone."""

import pytest

from capqa.statements.check import statement_issues

FLAGGED = [
    # a yes/no question's polarity word kept in the affirmative
    ("echoed_question", "Did they win any awards?", "Yes, they won two Grammy awards in 1992.",
     "They won any awards. They won two Grammy awards in 1992."),
    ("echoed_question", "Did he have any children?", "Yes, he had three daughters with his wife Mary.",
     "He had any children. He had three daughters with his wife Mary."),
    # "be" as the auxiliary of a bare verb
    ("copula_before_verb", "is the tv show the resident over for the season", "false",
     "The TV is not show the resident over for the season."),
    # a sentence with its own subject and auxiliary as a copula's subject
    ("clause_as_subject", "According to the passage, which of the following is TRUE?",
     "C. The museum is closed on Mondays.", "According to the passage, C. The museum is closed on Mondays is TRUE."),
    ("clause_as_subject", "Which of the following is TRUE?", "The museum is closed on Mondays.",
     "The museum is closed on Mondays is TRUE."),
    # an option letter before the option's own article
    ("label_left", "Which of the following can be the best title?", "B. A Day at the Zoo",
     "B. A Day at the Zoo can be the best title."),
    # the answer's equation run on into the question's words
    ("answer_in_frame", "How many percent of people were not Asian?", "100 - 4.3 = 95.7",
     "100 - 4.3 = 95.7 percent of people were not Asian."),
    # "because of" before a bare adjective
    ("answer_in_frame", "Why did John go to the kitchen?", "hungry", "John went to the kitchen because of hungry."),
    ("answer_in_frame", "Why is Hester forced to wear a scarlet letter?", "for committing adultery",
     "Hester is forced to wear a scarlet letter because of for committing adultery."),
    # an article before a personal pronoun: an instruction's verb swapped for "the"
    ("article_before_verb", "Give me a list of the planets in our solar system.", "Mercury, Venus, Earth",
     "The me a list of the planets in our solar system is Mercury, Venus, Earth."),
    # the copula put after the predicate that heads the question's stranded preposition
    ("auxiliary_misplaced", "What is the kitchen east of?", "the bedroom", "The kitchen east is of the bedroom."),
    # lower-case code capitalised to open the statement
    ("code_altered", "What does len([1, 2, 3]) return?", "3", "Len([1, 2, 3]) returns 3."),
    # a share asked in percent said as a count
    ("frame_lost", "How many people, in percent, were not Hispanic?", "81.4",
     "81.4 people, in percent, were not Hispanic."),
]


@pytest.mark.parametrize("code,question,answer,statement", FLAGGED)
def test_the_check_flags_the_converters_bad_statement(code, question, answer, statement):
    assert code in statement_issues(question, answer, statement)


SOUND = [
    ("Did they win any awards?", "Yes, they won two Grammy awards in 1992.",
     "They won awards. They won two Grammy awards in 1992."),
    ("Did they win any awards?", "No.", "They did not win any awards."),
    ("Has she ever been to Paris?", "Yes, twice.", "She has been to Paris twice."),
    ("Can you use any browser?", "Yes.", "You can use any browser."),
    ("is the tv show the resident over for the season", "false", "The TV show The Resident is not over for the season."),
    ("Which of the following is TRUE?", "The museum is closed on Mondays.", "The museum is closed on Mondays."),
    ("When was the first time electric timing was used in the Olympics?", "1948",
     "The first time electric timing was used in the Olympics was in 1948."),
    ("Who wrote Winnie-the-Pooh?", "A. A. Milne", "A. A. Milne wrote Winnie-the-Pooh."),
    ("How many percent of people were not Asian?", "100 - 4.3 = 95.7",
     "100 - 4.3 = 95.7, so 95.7 percent of people were not Asian."),
    ("How much did the pastries cost?", "3 x $68 = $204. The total was $204.",
     "The donuts cost 3 x $68 = $204. The total was $204."),
    ("Why did John go to the kitchen?", "hungry", "John went to the kitchen because he was hungry."),
    ("Why is Hester forced to wear a scarlet letter?", "for committing adultery",
     "Hester is forced to wear a scarlet letter for committing adultery."),
    ("Give me a list of the planets in our solar system.", "Mercury, Venus, Earth",
     "The planets in our solar system include Mercury, Venus and Earth."),
    ("What is the kitchen east of?", "the bedroom", "The kitchen is east of the bedroom."),
    ("What does len([1, 2, 3]) return?", "3", "The call len([1, 2, 3]) returns 3."),
    ("How many people, in percent, were not Hispanic?", "81.4", "81.4 percent of the people were not Hispanic."),
]


@pytest.mark.parametrize("question,answer,statement", SOUND)
def test_the_check_leaves_the_sound_statement_alone(question, answer, statement):
    assert statement_issues(question, answer, statement) == []
