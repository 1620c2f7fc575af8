"""The check's codes for bad statements of shapes no tuned corpus holds (issue 31, branch
checkwide): each a general property of the statement's parse or of its relation to the question.
Made-up rows; each bad statement is paired with a sound one of the same shape that stays clean."""

import pytest

from capqa.statements.check import statement_issues

FLAGGED = [
    # a noun phrase with a clause of its own joined after ", but"
    ("Who first climbed the Tarn Needle?", "I think it was Edda Kross, but I'm not sure.",
     "Edda Kross, but I'm not sure.", "fragment"),
    # a clause with no relative word after the phrase's own prepositional phrase
    ("How many people live in Madrid?", "about 3 million in the city proper",
     "About 3 million in the city proper people live in Madrid.", "fragment"),
    # a count label before a colon
    ("How many lakes feed the Brenn river?", "Just two: the Osk and the Vel feed it.",
     "Just two: the Osk and the Vel feed the Brenn river.", "fragment"),
    # a prepositional phrase after the subject's comma, never closed
    ("Which town is called the White Town?", "Dalen, because of its chalk walls",
     "Dalen, because of its chalk walls is called the White Town.", "clause_unclosed"),
    # a reason that restates the sentence, or says none is known
    ("Why do moths circle lamps?", "Moths circle lamps when they lose their bearings.",
     "Moths circle lamps because moths circle lamps when they lose their bearings.", "answer_in_frame"),
    ("Why do owls bob their heads?", "Nobody knows for sure.",
     "Owls bob their heads because nobody knows for sure.", "answer_in_frame"),
    # the copula put back before the end of the subject
    ("What is the capital of Vorland?", "Kessa", "Kessa the capital is of Vorland.", "auxiliary_misplaced"),
    ("What is the population of Vorland?", "about 9 million",
     "The population is of Vorland about 9 million.", "auxiliary_misplaced"),
    # a plural copula after one name where the question has "is"
    ("Who is the mayor of Lorvik?", "As of 2021, Ada Brun.", "As of 2021, Ada Brun are the mayor of Lorvik.",
     "agreement"),
    # the question's "in the second half" stands without its preposition
    ("How many goals did Pell score in the second half?", "three",
     "Pell scored in three goals the second half.", "missing_preposition"),
    # a year the question sets, left out
    ("Who coached the Lorvik team in 1987?", "Ada Brun", "Ada Brun coached the Lorvik team.", "question_missing"),
    # the answer's opening determiner capitalised before a number inside the sentence
    ("How often should I oil the hinge?", "Every 6 months.", "You should oil the hinge Every 6 months.",
     "capital_inside"),
]

CLEAN = [
    ("Who first climbed the Tarn Needle?", "Edda Kross", "Edda Kross first climbed the Tarn Needle."),
    ("How many people live in Lorvik?", "about 2 million", "About 2 million people live in Lorvik."),
    ("How many lakes feed the Brenn river?", "two", "Two lakes feed the Brenn river."),
    ("Which town is called the White Town?", "Dalen, because of its chalk walls",
     "Dalen is called the White Town because of its chalk walls."),
    ("Why do moths circle lamps?", "They lose their bearings.", "Moths circle lamps because they lose their bearings."),
    ("What is the capital of Vorland?", "Kessa", "The capital of Vorland is Kessa."),
    ("What is the population of Vorland?", "about 9 million", "The population of Vorland is about 9 million."),
    ("Who is the mayor of Lorvik?", "As of 2021, Ada Brun.", "As of 2021, Ada Brun is the mayor of Lorvik."),
    ("Who are the hosts of the show?", "The Brenns", "The Brenns are the hosts of the show."),
    ("How many goals did Pell score in the second half?", "three", "Pell scored three goals in the second half."),
    ("Who coached the Lorvik team in 1987?", "Ada Brun", "Ada Brun coached the Lorvik team in 1987."),
    ("Who coached the Lorvik team in 1987?", "Ada Brun coached it then.", "Ada Brun coached it then."),
    ("How often should I oil the hinge?", "Every 6 months.", "You should oil the hinge every 6 months."),
    ("What is the house made of?", "brick", "The house is of brick."),
]


@pytest.mark.parametrize("question, answer, statement, code", FLAGGED)
def test_the_check_flags_the_bad_shape(question, answer, statement, code):
    assert code in statement_issues(question, answer, statement)


@pytest.mark.parametrize("question, answer, statement", CLEAN)
def test_the_sound_statement_of_the_same_shape_is_clean(question, answer, statement):
    assert not {code for _, _, _, code in FLAGGED} & set(statement_issues(question, answer, statement))
