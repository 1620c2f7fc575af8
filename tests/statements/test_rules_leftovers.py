"""Failures the first round found and left (branch leftovers): a demonstrative subject of do-support
the tagger made a noun phrase ("How much does this cost?"), a possessive pronoun's antecedent of its
kind ("its" a thing, "his" / "her" a person of its gender), a request that names its receiver ("show
me flights ..."), a plural noun after "which" tagged as a verb ("which states border texas"), a
duration before the for-phrase of "it took", a factorial's "!", StackOverflow titles with a topic
label and an index in code read as no citation.

Made-up rows in the styles of GSM8K, ATIS, GeoQuery, Natural Questions, MATH and StackOverflow
titles; none is a corpus row."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement

_ROWS = [
    # do-support questions whose wh-phrase is the measure; a demonstrative subject
    ("How much does this cost?", "$125", "This costs $125."),
    ("How much did that cost?", "$40", "That cost $40."),
    ("How much do these weigh?", "2 kg", "These weigh 2 kg."),
    ("How much does this cost in Paris?", "10 euros", "This costs 10 euros in Paris."),
    ("How much does the ticket cost?", "$125", "The ticket costs $125."),
    ("How much did Maria pay for the shoes?", "$45", "Maria paid $45 for the shoes."),
    ("How far does the train travel?", "120 miles", "The train travels 120 miles."),
    # "its" takes the thing, "his" / "her" the person of its gender
    ("Tom bought a bike. What was its price?", "$200", "Tom bought a bike. The bike's price was $200."),
    ("Anna has a dog. What is its name?", "Rex", "Anna has a dog. The dog's name is Rex."),
    ("Sara planted a tree. How tall is its trunk?", "3 feet", "Sara planted a tree. The tree's trunk is 3 feet tall."),
    ("The car belongs to Mark. What is its color?", "red", "The car belongs to Mark. The car's color is red."),
    ("Lisa met John at the park. What is his job?", "teacher", "Lisa met John at the park. John's job is teacher."),
    ("Peter gave Mary a book. What is her favorite color?", "blue",
     "Peter gave Mary a book. Mary's favorite color is blue."),
    ("Tom has 5 apples. How many apples are in his basket?", "5", "Tom has 5 apples. There are 5 apples in Tom's basket."),
    # a request that names its receiver asks for the thing itself
    ("show me flights from Denver to Boston", "UA 123 and DL 456",
     "The flights from Denver to Boston are UA 123 and DL 456."),
    ("give me the cheapest fare from Dallas to Atlanta", "$199", "The cheapest fare from Dallas to Atlanta is $199."),
    ("find me a restaurant near the station", "Luigi's", "A restaurant near the station is Luigi's."),
    ("show me the weather in Seattle", "rainy, 12 degrees", "The weather in Seattle is rainy, 12 degrees."),
    ("tell me the capital of Peru", "Lima", "The capital of Peru is Lima."),
    # a plural noun after "which" that the tagger calls a verb
    ("which states border texas", "new mexico, oklahoma, arkansas, louisiana",
     "New Mexico, Oklahoma, Arkansas, Louisiana border Texas."),
    ("which mountains exceed 14000 feet", "mount elbert", "Mount Elbert exceeds 14000 feet."),
    ("what states border nevada", "utah, idaho", "The states that border Nevada include Utah, Idaho."),
    ("what measures air pressure", "a barometer", "A barometer measures air pressure."),
    # the duration before the infinitive's for-phrase
    ("how long did it take for the team to win the championship?", "It took them 17 years.",
     "It took 17 years for the team to win the championship."),
    ("how long did it take for Beethoven to write his ninth symphony?", "6 years",
     "It took 6 years for Beethoven to write his ninth symphony."),
    ("how long did it take for Microsoft to ship Windows 95?", "It took Microsoft 3 years.",
     "It took 3 years for Microsoft to ship Windows 95."),
    ("How long does it take her to read the book?", "5 days", "It takes her 5 days to read the book."),
    # a factorial's "!" is part of the text
    ("What is the value of 5!", "120", "The value of 5! is 120."),
    ("What is the last digit of 10!", "0", "The last digit of 10! is 0."),
    ("Given n, compute the number of trailing zeros in n!", "The count of factors of 5 in n!",
     "Given n, the number of trailing zeros in n! is the count of factors of 5 in n!."),
    # a title's topic label before "how to"; an index in code is no citation
    ("javascript: how to remove an element from an array", "Use array.splice(index, 1).",
     "To remove an element from an array, you use array.splice(index, 1)."),
    ("The python: how to read a file line by line", "Use for line in open(path):",
     "To read a file line by line, you use for line in open(path)."),
    ("Python - How to sort a dict by value?", "Use sorted(d.items(), key=lambda x: x[1]).",
     "To sort a dict by value, you use sorted(d.items(), key=lambda x: x[1])."),
    ("How do I get the first row of a DataFrame?", "Use df.iloc[0].",
     "To get the first row of a DataFrame, you use df.iloc[0]."),
]


@pytest.mark.parametrize("question, answer, statement", _ROWS)
def test_statement(question, answer, statement):
    assert rule_statement(question, answer) == statement


@pytest.mark.parametrize("question, answer, statement", [
    # no subject phrase of the infinitive, no factorial, a citation, a gender nothing tells: as they were
    ("How long does it take light from the Sun to reach Earth?", "8 minutes",
     "It takes light from the Sun 8 minutes to reach Earth."),
    ("Wow! What is the capital of France?", "Paris!", "Wow. The capital of France is Paris."),
    ("Who wrote Hamlet?", "Shakespeare wrote it[1][2] in 1600.", "Shakespeare wrote Hamlet in 1600."),
    ("Anna called Zork. What is his name?", "Max", "Anna called Zork. His name is Max."),
])
def test_kept(question, answer, statement):
    assert rule_statement(question, answer) == statement


def test_request_statement_passes_the_check():
    question, answer = "show me flights from Denver to Boston", "UA 123 and DL 456"
    assert statement_issues(question, answer, rule_statement(question, answer)) == []
