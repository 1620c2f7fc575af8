"""statement_issues: what is wrong with a statement, for the converter's and a model's output."""

import pytest

from capqa.statements.check import ISSUES, statement_issues, statements_issues


@pytest.mark.parametrize("question, answer, statement, codes", [
    # The broken outputs of issue 21, each seen for what it is
    ("Tell me who painted the Mona Lisa.", "Leonardo da Vinci", "Tell me who painted the Mona Lisa; Leonardo da Vinci.",
     {"imperative_start", "echoed_question", "semicolon_join"}),
    ("True or false: the Pacific is the largest ocean.", "True",
     "True or false: the Pacific is the largest ocean; True.", {"imperative_start", "semicolon_join"}),
    ("Which planet does not have any moons?", "Mercury", "The planet not has any moons is Mercury.", set()),
    ("Mount Kilimanjaro is about ___ metres high.", "5,895 metres", "Mount Kilimanjaro is about 5,895 metres metres high.",
     {"doubled_word"}),
    ("The ___ is the largest organ of the human body, and it weighs about ___.", "skin; 4 kilograms",
     "The skin; 4 kilograms is the largest organ of the human body, and it weighs about ___.", {"blank_left"}),
    ("Capital of France?", "Paris", 'The answer to "Capital of France?" is Paris.', {"fallback_form"}),
    ("Who composed the Four Seasons?", "Antonio Vivaldi", "He was Antonio Vivaldi.", {"pronoun_start"}),
    ("What is the capital of Australia?", "Canberra", "What is the capital of Australia? Canberra.",
     {"wh_start", "question_mark", "echoed_question"}),
    ("Can penguins fly?", "no", "Can penguins fly.", {"auxiliary_start"}),
    ("Who wrote Hamlet?", "Shakespeare", "Marlowe wrote Hamlet.", {"answer_missing"}),
    ("What is a cell?", "the basic unit of life", "A cell is a the basic unit of life.", {"doubled_word"}),
    ("Name a fruit.", "apple", "One fruit is a apple.", {"article_mismatch"}),
    ("What is it?", "x", "   ", {"empty"}),
    # A stem completed by a verb phrase, given a copula or "include" it did not need
    ("Condensation over night", "can lead to slippery grass", "The Condensation over night is can lead to slippery grass.",
     {"copula_before_verb"}),
    ("Scales", "help users know their weight", "The Scales are will help users know their weight.",
     {"copula_before_verb"}),
    ("For Julia, popsicles", "are an inferior good", "For Julia, popsicles include are an inferior good.",
     {"copula_before_verb"}),
    ("If a fox dies, then that fox", "ceases to exist", "If a fox dies, then that fox is ceases to exist.",
     {"copula_before_verb"}),
    ("Is the United States a country?", "yes", "The is United States a country.", {"article_before_verb"}),
])
def test_broken_statements_are_flagged(question, answer, statement, codes):
    assert codes <= set(statement_issues(question, answer, statement))


@pytest.mark.parametrize("question, answer, statement", [
    ("Who painted the Mona Lisa?", "Leonardo da Vinci", "Leonardo da Vinci painted the Mona Lisa."),
    ("Which planet does not have any moons?", "Mercury", "Mercury does not have any moons."),
    ("who plays the voice of johnny in sing", "Taron Egerton", "Taron Egerton plays the voice of Johnny in Sing."),
    ("who dies in the beginning of deathly hallows part 1", "Hedwig",
     "The character who dies in the beginning of Deathly Hallows Part 1 is Hedwig."),
    ("Can penguins fly?", "no", "Penguins cannot fly."),
    ("when did it become law to stand for the national anthem", "It became law in 1942.", "It became law in 1942."),
    ("who played truman capote in in cold blood", "Robert Blake", "Robert Blake played Truman Capote in In Cold Blood."),
    ("Who played Raoul?", "Will Friedle", "Will Friedle played Raoul."),
    ("When the war ended, what happened?", "peace", "When the war ended, peace followed."),
    ("What is the SI unit of force?", "newton", "The SI unit of force is the newton."),
    ("Which of these is an amphibian? A) snake B) frog", "B", "A frog is an amphibian."),
    ("Is the Sun a star?", "Yes, I'm fairly sure.", "The Sun is a star."),
    ("When rocks are exposed to wind, the rocks", "erode", "When rocks are exposed to wind, the rocks erode."),
    ("Who played the lead?", "Will Smith", "The lead was Will Smith."),
    ("What did the report find?", "increases in crime", "The report found that the result is increases in crime."),
    ("What is the best thing to do?", "do nothing", "The best thing is to do nothing."),
])
def test_sound_statements_have_no_issue(question, answer, statement):
    assert statement_issues(question, answer, statement) == []


def test_codes_are_described_and_returned_in_their_order():
    assert all(isinstance(code, str) and description for code, description in ISSUES.items())
    issues = statement_issues("Tell me who wrote it.", "Shakespeare", "Tell me who wrote it; Shakespeare?")
    assert issues == [code for code in ISSUES if code in issues] and len(issues) >= 3


def test_the_check_parses_the_statements_in_one_batch(monkeypatch):
    """statements_issues reads each statement's own parse (the converter's parser), all of a
    batch parsed in one call, then in a second call only the questions whose tests their strings
    did not decide, and gives what statement_issues gives one by one."""
    from capqa.statements import check
    from capqa.statements.rules.queries import clear_parses

    rows = [("What is the capital of Peru?", "Lima", "The capital of Peru is Lima."),
            ("Which detective was created by G K Chesterton?", "Father Brown", "Father Brown — the priest."),
            ("Make outdoor pillow.", "blow into a trash bag", "Blow into a trash bag.")]
    one_by_one = [statement_issues(*row) for row in rows]
    clear_parses()
    calls = []
    real = check.parse_into
    monkeypatch.setattr(check, "parse_into", lambda parsed, texts: calls.append(list(texts)) or real(parsed, calls[-1]))
    assert check.statements_issues(*map(list, zip(*rows))) == one_by_one
    assert len(calls) == 2 and "The capital of Peru is Lima." in calls[0]
    # "is" and "was" may front a predicate ("What is ... compliant with?"): those questions'
    # parses decide; the query has no "be" to front, and its statement does not start with it.
    assert calls[1] == ["What is the capital of Peru?", "Which detective was created by G K Chesterton?"]
    # The second and third also say none of the question's words (who created him, a pillow)
    assert one_by_one == [[], ["fragment", "frame_lost"], ["imperative_sentence", "frame_lost"]]


@pytest.mark.parametrize("call, error, name", [
    (lambda: statement_issues(None, "x", "y"), TypeError, "question"),
    (lambda: statement_issues("q", "", "y"), ValueError, "answer"),
    (lambda: statement_issues("q", "x", 3), TypeError, "statement"),
    (lambda: statements_issues(["q"], ["x"], [3]), TypeError, "statements\\[0\\]"),
    (lambda: statements_issues(["q"], ["x", "y"], ["z"]), ValueError, "questions"),
])
def test_bad_input_names_the_argument(call, error, name):
    with pytest.raises(error, match=f"`{name}`"):
        call()


# Issue 35 item 16: characters that print nothing hide nothing from the check (and add nothing).
@pytest.mark.parametrize("statement, codes", [
    ("\u200b\u2060\u200b", ["empty"]),
    ("\x00\x01", ["empty"]),
    ("\ufeff \u200d\t", ["empty"]),
    ("Paris is the capital of France?\u200b", ["question_mark"]),
    ("Paris is the capital of France?\u202c", ["question_mark"]),
    ("Paris is the capital of France?\u200f\u2066", ["question_mark"]),
    ("Paris is the\u200b the capital of France.", ["doubled_word"]),
    ("Paris is the capital of the\u00ad the country.", ["doubled_word"]),
    ("\ufeffIs Paris the capital of France?", ["auxiliary_start", "question_mark"]),
    ("\u200bWhat is the capital of France? Paris.", ["wh_start", "question_mark", "echoed_question", "fragment"]),
    ("Pa\u200bris is the capital of France.", []),
])
def test_invisible_characters_are_read_as_the_statement_shows(statement, codes):
    assert statement_issues("What is the capital of France?", "Paris", statement) == codes


def test_invisible_characters_in_the_question_and_answer_are_read_as_shown():
    assert statement_issues("What is the capital\u200b of France?", "Pa\u2060ris", "Paris is the capital of France.") == []
    assert statement_issues("What is the capital of France?", "Pa\u2060ris", "Lyon is the capital.") == ["answer_missing"]
