"""Question shapes (branch qshapes): a degree's particle and comparatives rebuilt in declarative
order, an imperative answer to a "best way" title as its infinitive, a task or small clause after a
topic's label, shell commands kept as code; and the check's stranded preposition and echoed title.

Made-up rows that show each mechanism; none is a corpus row."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement
from capqa.statements.rules.code import is_code


@pytest.mark.parametrize("question, answer, statement", [
    # a degree's particle is the wh-phrase's, and goes after the measure
    ("How far away is the nearest star?", "about 4.2 light years", "The nearest star is about 4.2 light years away."),
    ("How long ago was the pyramid built?", "about 4,500 years ago", "The pyramid was built about 4,500 years ago."),
    ("How long ago did the volcano erupt?", "300 years", "The volcano erupted 300 years ago."),
    # the degree after a passive's participle or "allowed to be"; only a dimension follows a measure
    ("How wide is the road allowed to be?", "9 metres", "The road is allowed to be 9 metres wide."),
    ("How hot is the oven?", "about 220 degrees", "The oven is about 220 degrees."),
    ("How hot is the soup?", "very", "The soup is very hot."),
    ("How deep is the lake?", "40 metres", "The lake is 40 metres deep."),
    ("How long has it been since the flood?", "three years", "It has been three years since the flood."),
    # an adverb the tagger calls otherwise, an adjunct before the inversion, a participle hung on the subject
    ("How far offshore is the reef?", "about 2 km", "The reef is about 2 km offshore."),
    ("How soon after surgery can patients walk?", "within a day", "Patients can walk after surgery within a day."),
    ("What is the bowl carved out of?", "walnut", "The bowl is carved out of walnut."),
    ("Why is the pizza dough not stretching?", "It is too cold.", "The pizza dough is not stretching because it is too cold."),
    # comparatives: found by their form, the wh-phrase no subject, a name's phrase with the comparison
    ("How much longer did the opera last than the play?", "an hour", "The opera lasted an hour longer than the play."),
    ("How much louder is thunder than rain?", "about ten times louder", "Thunder is about ten times louder than rain."),
    ("How much closer is Venus to the Sun than Earth?", "about 42 million km",
     "Venus is about 42 million km closer to the Sun than Earth."),
    ("How much more expensive is saffron than vanilla?", "ten times more expensive",
     "Saffron is ten times more expensive than vanilla."),
    # an imperative answer to a course of action is its infinitive
    ("Best way to clean a cast iron pan?", "Scrub it with coarse salt and a little oil.",
     "The best way to clean a cast iron pan is to scrub it with coarse salt and a little oil."),
    ("What is the simplest way to peel garlic?", "Shake the cloves in a closed jar.",
     "The simplest way to peel garlic is to shake the cloves in a closed jar."),
    ("What is the first thing to do after a minor burn?", "Run cool water over it for ten minutes.",
     "The first thing to do after a minor burn is run cool water over it for ten minutes."),
    # a topic's label before a task, and a small clause asked about by a bare "why?"
    ("Linux: count lines in a file?", "wc -l file.txt", "You can count lines in a file with wc -l file.txt."),
    ("Phone screen flickering -- why?", "A loose display cable causes it.",
     "The phone screen is flickering because a loose display cable causes it."),
    # a noun-phrase query: a number's comma and one comma make no list
    ("depth of lake baikal", "1,642 metres", "The depth of Lake Baikal is 1,642 metres."),
    ("Best month to visit Iceland?", "June, for the midnight sun.",
     "The best month to visit Iceland is June, for the midnight sun."),
    # an infinitive after a noun that is no course of action: a title that reads like an imperative stays a name
    ("What are good books to learn chess?", "Think Like a Grandmaster and Logical Chess are popular choices.",
     "Think Like a Grandmaster and Logical Chess are popular choices."),
    # the copula the auxiliary of an -ing verb after the subject: that verb is the predicate's
    ("What is she holding?", "a red umbrella", "She is holding a red umbrella."),
    ("What was the old man reading?", "a newspaper", "The old man was reading a newspaper."),
    # a predicate noun after the subject, its preposition stranded (the parse's attribute or apposition)
    ("Who was Zeus the father of?", "Athena and Apollo", "Zeus was the father of Athena and Apollo."),
    ("What is Lagos the largest city of?", "Nigeria", "Lagos is the largest city of Nigeria."),
    ("Which country is Canberra the capital of?", "Australia", "Canberra is the capital of Australia."),
    # a clause after "because" loses the capital that opened it, unless the parse reads a name
    ("Why is snow white?", "Ice crystals scatter all colours of light.",
     "Snow is white because ice crystals scatter all colours of light."),
    ("Why did Norway join NATO?", "Norway wanted protection after the war.",
     "Norway joined NATO because Norway wanted protection after the war."),
])
def test_question_shapes(question, answer, statement):
    assert rule_statement(question, answer) == statement


def test_why_answer_that_parses_as_a_clause_takes_because():
    made = rule_statement("Why is the kettle whistling?", "Steam pressure forces air through the spout.")
    assert "because steam pressure forces" in made.lower() and "because of" not in made
    made = rule_statement("Wheel squeaking -- why?", "It's a dry bearing.")
    assert made == "The wheel is squeaking because it's a dry bearing."


def test_shell_commands_are_code_and_sentences_about_them_are_not():
    assert is_code("git checkout -b feature")
    assert is_code("ls -la /tmp")
    assert not is_code("sed -i 's/a/b/g' f.txt is the quickest way.")
    assert not is_code("Temperatures drop to -40 at night")


@pytest.mark.parametrize("question, answer, statement, flagged", [
    ("What is the bridge made of?", "steel", "The bridge is made of.", True),
    ("Who did he travel to Rome with?", "his brother", "He traveled to Rome with.", True),
    ("What is the bridge made of?", "steel", "Steel is what the bridge is made of.", False),
    ("What is the bridge made of?", "steel", "The bridge is made of steel.", False),
    ("How do you take the lid off?", "Twist it.", "To take the lid off, you twist it off.", False),
])
def test_preposition_stranded(question, answer, statement, flagged):
    assert ("preposition_stranded" in statement_issues(question, answer, statement)) is flagged


def test_title_led_by_a_verb_echoed_with_the_answer():
    assert "echoed_question" in statement_issues("Undo last merge?", "git merge --abort",
                                                 "Undo last merge git merge --abort.")
    assert "echoed_question" not in statement_issues("Undo last merge?", "git merge --abort",
                                                     "You can undo the last merge with git merge --abort.")


def test_imperative_made_infinitive_is_no_answer_in_frame():
    codes = statement_issues("Tips for a long flight?", "Drink plenty of water and walk around every hour.",
                             "The tips for a long flight are to drink plenty of water and walk around every hour.")
    assert "answer_in_frame" not in codes


@pytest.mark.parametrize("statement, flagged", [
    ("Before the exam should you eat breakfast.", True),
    ("You should eat breakfast before the exam.", False),
    ("Only then can you eat breakfast.", False),
    ("Ella Fitzgerald sang baby won't you please come home.", False),
])
def test_modal_left_before_its_subject(statement, flagged):
    codes = statement_issues("When should you eat breakfast?", "before the exam", statement)
    assert ("inverted_order" in codes) is flagged
