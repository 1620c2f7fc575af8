"""Question and answer shapes of benchmarks nobody tuned on (branch convwide): a progressive whose -ing
verb the parse makes a noun after a name, a particle that opens a determined phrase read as its
preposition, a label saying one item follows its colon, a linking verb's adjective complement, an
imperative answer to "Which of the following is the next step?", and a choice's own determiner.

Made-up rows that show each mechanism; none is a corpus row."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement


@pytest.mark.parametrize("question, answer, statement", [
    # a lower-case -ing verb after a name is the progressive's, whatever tag the parse gives it
    ("Who is Mary meeting tomorrow?", "her lawyer", "Mary is meeting her lawyer tomorrow."),
    ("Who is Tom calling?", "his mother", "Tom is calling his mother."),
    ("What was Alice reading?", "a letter from her sister", "Alice was reading a letter from her sister."),
    ("What was Sam cooking for dinner?", "pasta", "Sam was cooking pasta for dinner."),
    ("Who is Mary meeting with?", "Bob", "Mary is meeting with Bob."),
    # ... but an -ing word that modifies a noun after it, or a name alone, is the subject's
    ("What is the Beatles recording studio?", "Abbey Road", "The Beatles recording studio is Abbey Road."),
    ("Who is Peter Pan?", "a boy", "Peter Pan is a boy."),
    # a particle before a determiner is a preposition: the counted object goes before it
    ("How many touchdowns did Brady throw in the second half?", "two", "Brady threw two touchdowns in the second half."),
    ("How many books did she pick up yesterday?", "three", "She picked up three books yesterday."),
    # a label saying one item follows goes (not where a count is asked and it is the count)
    ("Which country won the 2010 World Cup?", "Only one: Spain.", "Spain won the 2010 World Cup."),
    ("How many legs does a spider have?", "Only one answer: eight.", "A spider has eight legs."),
    ("Who wrote Hamlet?", "Just one: Shakespeare", "Shakespeare wrote Hamlet."),
    # a linking verb's adjective goes right after the verb, before the question's phrases
    ("How did the boy feel at the end of the story?", "happy", "The boy felt happy at the end of the story."),
    ("How did Tom feel?", "sad", "Tom felt sad."),
    ("How did he travel to Paris?", "by train", "He traveled to Paris by train."),
    # a bare lower-case venue noun is a part of the scene ("in the garden"); a venue's name stays "at"
    ("Where is the apple?", "garden", "The apple is in the garden."),
    ("Where did they play?", "Wembley Stadium", "They played at Wembley Stadium."),
    # a place goes after the copula, before a time phrase (the parse may hang it on the subject)
    ("Where was Sandra before the office?", "the hallway", "Sandra was in the hallway before the office."),
    ("Where was the football before the kitchen?", "garden", "The football was in the garden before the kitchen."),
    ("Where is the house on the hill?", "in Devon", "The house on the hill is in Devon."),
    # an inflammation's name ("-itis") is a mass noun: no article after a superlative subject
    ("What is the most likely diagnosis?", "acute appendicitis", "The most likely diagnosis is acute appendicitis."),
    # an adjective or adverb after its degree adverbs is the manner or complement itself, no "through ..."
    ("How did she look after the race?", "very tired", "She looked very tired after the race."),
    ("How did he answer the letter?", "quite politely", "He answered the letter quite politely."),
    # an imperative answer to "Which of the following is the next step?" is a course of action, as for "What is"
    ("Which of the following is the most appropriate next step in management?", "Order a CT scan of the abdomen.",
     "The most appropriate next step in management is to order a CT scan of the abdomen."),
    ("What is the first step?", "Unplug the router.", "The first step is to unplug the router."),
    ("Which of the following is the capital of France?", "Paris", "Paris is the capital of France."),
    # a bare answer to a choice question takes the option as the question writes it
    ("Which is faster, a cheetah or a horse?", "cheetah", "A cheetah is faster than a horse."),
    ("Which is heavier, gold or silver?", "gold", "Gold is heavier than silver."),
])
def test_statement(question, answer, statement):
    assert rule_statement(question, answer) == statement


@pytest.mark.parametrize("question, answer", [
    ("Which country won the 2010 World Cup?", "Only one: Spain."),
    ("How many legs does a spider have?", "Only one answer: eight."),
])
def test_single_label_is_no_missing_answer(question, answer):
    """The check reads the label as the converter does: not the answer's words."""
    assert "answer_missing" not in statement_issues(question, answer, rule_statement(question, answer))
