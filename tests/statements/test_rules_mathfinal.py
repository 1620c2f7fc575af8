"""Math word problems answered with worked solutions (branch mathfinal): a final answer worked out in
its own sentence answers with its equation chain's last value and unit ("Cost Price = 240 + 60 =
Rs.300" -> "... is Rs. 300.", the chain kept as working before the statement); a pronoun's sentence
that answers part of the frame keeps the question's frame ("She has 12 left." -> "Jenny has 12 stickers
left."); an option's key with its reason gives the option's text and the reason as a sentence of its
own; frames of "how many times as X as Y", "what percentage of N", "by what percent", rates and money.

Made-up rows in the styles of GSM8K, SVAMP, ASDiv, MAWPS, MATH and NumGLUE; none is a corpus row."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement

_ARTICLE = "A shopkeeper buys an article for Rs. 240 and spends Rs. 60 on repairs. What is the cost price of the article?"
_BOOKS = "Sam has 42 books and Tim has 17 books. How many more books does Sam have than Tim?"
_COOKIES = ("Paco had 26 salty cookies and 17 sweet cookies. He ate 14 sweet cookies and 9 salty cookies. How many "
            "salty cookies did Paco have left?")
_COOKIES_CONTEXT = "Paco had 26 salty cookies and 17 sweet cookies. He ate 14 sweet cookies and 9 salty cookies."

_ROWS = [
    # an equation chain's last value, with its currency and unit, in the frame; the chain as working before it
    (_ARTICLE, "Cost Price = 240 + 60 = Rs.300",
     "A shopkeeper buys an article for Rs. 240 and spends Rs. 60 on repairs. Cost Price = 240 + 60 = Rs.300. The cost "
     "price of the article is Rs. 300."),
    ("A car covers 120 km in 2 hours. What is the speed of the car?", "Speed = 120 / 2 = 60 km/hr",
     "A car covers 120 km in 2 hours. Speed = 120 / 2 = 60 km/hr. The speed of the car is 60 km/hr."),
    ("A cyclist rides 45 km in 3 hours. At what speed does the cyclist ride?", "45 / 3 = 15 km/hr",
     "A cyclist rides 45 km in 3 hours. 45 / 3 = 15 km/hr. The cyclist rides at 15 km/hr."),
    # equations with a variable
    ("Five apples cost 45 cents. How much does one apple cost?", "5a = 45, so a = 9 cents.",
     "Five apples cost 45 cents. 5a = 45, so a = 9 cents. One apple costs 9 cents."),
    ("Jack has 9 more marbles than Jill. Jill has 14 marbles. How many marbles does Jack have?",
     "Let x be the number of marbles Jack has, so x = 14 + 9 = 23.",
     "Jack has 9 more marbles than Jill. Jill has 14 marbles. Let x be the number of marbles Jack has, so x = 14 + 9 "
     "= 23. Jack has 23 marbles."),
    ("What is the value of $x$ if $4x - 7 = 21$?", "$4x = 28$, so $x = 7$.",
     "$4x = 28$, so $x = 7$. The value of $x$ if $4x - 7 = 21$ is 7."),
    ("A rectangle's length is twice its width. Its perimeter is 36 cm. What is its width?",
     "Let w be the width. 2(2w + w) = 36, so 6w = 36 and w = 6 cm.",
     "A rectangle's length is twice its width. Its perimeter is 36 cm. Let w be the width. 2(2w + w) = 36, so 6w = 36 "
     "and w = 6 cm. A rectangle's width is 6 cm."),
    ("Solve 3*h - 12 = 9 for h.", "h = 7", "The solution of 3*h - 12 = 9 for h is 7."),
    # a conclusion after the working's "so" is a sentence of its own
    ("What is the remainder when 50 is divided by 6?", "50 = 6 * 8 + 2, so the remainder is 2.",
     "50 = 6 * 8 + 2. When 50 is divided by 6, the remainder is 2."),
    # the chain inside a sentence, money and percentages
    ("A store sells pens at $3 each. Lucy buys 6 pens. How much does she pay?", "She pays 6 × $3 = $18.",
     "A store sells pens at $3 each. Lucy buys 6 pens. She pays 6 × $3 = $18. Lucy pays $18."),
    ("Mike earned $45 mowing lawns and $27 weeding. How much money did Mike earn?", "45 + 27 = $72",
     "Mike earned $45 mowing lawns and $27 weeding. 45 + 27 = $72. Mike earned $72."),
    ("A class has 40 students and 10 of them are absent. What percentage of the students is absent?",
     "10 / 40 × 100 = 25%",
     "A class has 40 students and 10 of them are absent. 10 / 40 × 100 = 25%. The percentage of the students that is "
     "absent is 25%."),
    ("If a shirt's price rose from $20 to $25, by what percent did the price increase?", "(25 - 20) / 20 × 100 = 25%",
     "(25 - 20) / 20 × 100 = 25%. If a shirt's price rose from $20 to $25, the price increased by 25%."),
    ("Shorts cost $16.50. How many dollars did Mishka spend on all the clothing items?", "$243",
     "Shorts cost $16.50. Mishka spent $243 on all the clothing items."),
    # a last sentence's chain after working
    ("A regular hexagon can be divided into six equilateral triangles. If the perimeter of one of the triangles is 21 "
     "inches, what is the perimeter, in inches, of the regular hexagon?",
     "Each side of a triangle is 21/3 = 7 inches. The hexagon has six such sides, so its perimeter is 6 * 7 = 42 inches.",
     "A regular hexagon can be divided into six equilateral triangles. Each side of a triangle is 21/3 = 7 inches. The "
     "hexagon has six such sides, so its perimeter is 6 * 7 = 42 inches. If the perimeter of one of the triangles is "
     "21 inches, the perimeter, in inches, of the regular hexagon is 42 inches."),
    # how much more, how many times
    (_BOOKS, "42 - 17 = 25", "Sam has 42 books and Tim has 17 books. 42 - 17 = 25. Sam has 25 more books than Tim."),
    (_BOOKS, "He has 25 more.", "Sam has 42 books and Tim has 17 books. Sam has 25 more books than Tim."),
    ("Kim has $50 and Tom has $20. How much more money does Kim have than Tom?", "She has $30 more.",
     "Kim has $50 and Tom has $20. Kim has $30 more than Tom."),
    ("A pizza costs $12 and a salad costs $4. How many times as expensive as the salad is the pizza?", "12 / 4 = 3 times",
     "A pizza costs $12 and a salad costs $4. 12 / 4 = 3 times. The pizza is 3 times as expensive as the salad."),
    ("A pizza costs $12 and a salad costs $4. How many times as expensive as the salad is the pizza?",
     "It is 3 times as expensive.",
     "A pizza costs $12 and a salad costs $4. The pizza is 3 times as expensive as the salad."),
    # a pronoun's sentence that answers part of the frame
    ("Jenny had 20 stickers. She gave 8 to her friend. How many stickers does Jenny have left?", "She has 12 left.",
     "Jenny had 20 stickers. She gave 8 to her friend. Jenny has 12 stickers left."),
    (_COOKIES, "He had 17 salty cookies left.", f"{_COOKIES_CONTEXT} Paco had 17 salty cookies left."),
    (_COOKIES, "Salty cookies left = 26 - 9 = 17",
     f"{_COOKIES_CONTEXT} Salty cookies left = 26 - 9 = 17. Paco had 17 salty cookies left."),
    ("Tom has 8 red balloons and 5 blue balloons. How many balloons does he have in all?", "He has 13 balloons in all.",
     "Tom has 8 red balloons and 5 blue balloons. Tom has 13 balloons in all."),
    ("It takes 4 workers 6 hours to paint a house. How long would it take 8 workers?", "It would take them 3 hours.",
     "It takes 4 workers 6 hours to paint a house. It would take 8 workers 3 hours."),
    ("A car travels 150 km in 3 hours. What is its speed in km/hr?", "It travels at 50 km/hr.",
     "A car travels 150 km in 3 hours. A car travels at 50 km/hr."),
    ("Joe's income is $3000 and his expenses are $2400. What percentage of his income does he save?", "20%",
     "Joe's income is $3000 and his expenses are $2400. The percentage of Joe's income he saves is 20%."),
    ("Bill walks 1 mile. How many miles is he, in a direct line, from his starting point?", "1.25 miles",
     "Bill walks 1 mile. Bill is 1.25 miles, in a direct line, from his starting point."),
    ("If he picks the jewelry, how much profit would this be?", "$125", "If he picks the jewelry, this would be $125 profit."),
    ("Sara is 12. How old will Sara be in 5 years?", "She will be 17.", "Sara is 12. Sara will be 17 in 5 years."),
    ("Mia reads 20 pages a day. How many days will it take her to read a 100-page book?", "It will take her 5 days.",
     "Mia reads 20 pages a day. It will take her 5 days to read a 100-page book."),
    ("A farmer sells 10 eggs at $5 each. How much does the farmer earn?", "He'd earn $50.",
     "A farmer sells 10 eggs at $5 each. The farmer earns $50."),
    # an option's key with its reason
    ("Which planet is the largest in our solar system? (A) Mars (B) Jupiter (C) Venus (D) Earth",
     "(B), because it is a gas giant.", "Jupiter is the largest planet in our solar system. It is a gas giant."),
    ("Which gas do plants absorb from the air? (A) oxygen (B) carbon dioxide (C) nitrogen (D) helium",
     "(B), because plants use it for photosynthesis.",
     "The gas plants absorb from the air is carbon dioxide. Plants use it for photosynthesis."),
    ("What is 12 times 3? (A) 33 (B) 36 (C) 39 (D) 42", "B, since 12 x 3 = 36.", "12 times 3 is 36. 12 x 3 = 36."),
]


@pytest.mark.parametrize("question, answer, statement", _ROWS)
def test_statement(question, answer, statement):
    assert rule_statement(question, answer) == statement


@pytest.mark.parametrize("question, answer, statement", [
    # not math, no option: kept as they were
    ("What is the capital of France?", "Paris, because it is the largest city.",
     "The capital of France is Paris, because it is the largest city."),
    # code's "=" is no equation chain
    ("Pretty print JSON", "use json.dumps with indent=2", "Pretty print JSON use json.dumps with indent=2."),
    # a list of values is the answer as written, no chain's last value
    ("Find the roots of $(x - 3)(x - 5) = 0$.", "The roots are $x = 3$ and $x = 5$.",
     "The roots of $(x - 3)(x - 5) = 0$ are $x = 3$ and $x = 5$."),
])
def test_kept(question, answer, statement):
    assert rule_statement(question, answer) == statement


def test_chain_statement_passes_the_check():
    question, answer = "A car covers 120 km in 2 hours. What is the speed of the car?", "Speed = 120 / 2 = 60 km/hr"
    assert statement_issues(question, answer, rule_statement(question, answer)) == []
