"""Worked answers (branch worked): reasoning, then the final answer, as language models and
rationale datasets write it. The final answer is read from its label ("The answer is 7", "So the
answer is", "Final answer:", "Therefore, the answer (arabic numerals) is"), GSM8K's "#### 7", a
"\\boxed{7}", a lone final value or a plain last sentence after an equation; the chain-of-thought
opening and "Step N:" labels go; the working stays before the statement of the final answer, said
once. With them, word-problem frames: "how much money", "how far", "how many more ... than",
"What time will it be", a date's month, a context sentence's fronted phrase.

Made-up rows in the styles of SVAMP, ASDiv, MAWPS, MultiArith and calendar questions; none is a corpus row."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement

_APPLES = "Tom has 5 apples and buys 3 more. How many apples does Tom have?"


@pytest.mark.parametrize("question, answer, statement", [
    # the final answer's label, whatever its opening ("The answer is 7" lost its gap to a possessive space before)
    ("A baker made 24 cakes. He sold 15 of them. How many cakes does the baker have left?",
     "24 - 15 = 9\nThe answer is 9.",
     "A baker made 24 cakes. He sold 15 of them. 24 - 15 = 9. The baker has 9 cakes left."),
    (_APPLES, "5 + 3 = 8. So the answer is 8.", "Tom has 5 apples and buys 3 more. 5 + 3 = 8. Tom has 8 apples."),
    (_APPLES, "5 + 3 = 8.\nThe answer is: 8", "Tom has 5 apples and buys 3 more. 5 + 3 = 8. Tom has 8 apples."),
    (_APPLES, "Thus, the answer is 8.", "Tom has 5 apples and buys 3 more. Tom has 8 apples."),
    ("For Halloween Debby and her sister combined the candy they received. Debby had 32 pieces of candy while her "
     "sister had 42. If they ate 35 pieces the first night, how many pieces do they have left?",
     "Together they had 32 + 42 = 74 pieces. They ate 35, so 74 - 35 = 39 pieces are left. Therefore, the answer "
     "(arabic numerals) is 39.",
     "For Halloween Debby and her sister combined the candy they received. Debby had 32 pieces of candy while her "
     "sister had 42. Together they had 32 + 42 = 74 pieces. They ate 35, so 74 - 35 = 39 pieces are left. If they "
     "ate 35 pieces the first night, they have 39 pieces left."),
    # GSM8K's "####", a box, a lone final value
    (_APPLES, "5 + 3 = 8\n#### 8", "Tom has 5 apples and buys 3 more. 5 + 3 = 8. Tom has 8 apples."),
    (_APPLES, "He buys 3 more, so 5 + 3 = 8 apples.\n\\boxed{8}",
     "Tom has 5 apples and buys 3 more. He buys 3 more, so 5 + 3 = 8 apples. Tom has 8 apples."),
    (_APPLES, "5 + 3 = 8. The final answer is $\\boxed{8}$.",
     "Tom has 5 apples and buys 3 more. 5 + 3 = 8. Tom has 8 apples."),
    ("A farmer has 51 cows. He sells 17 of them. How many cows does the farmer have now?",
     "The farmer had 51 cows and sold 17.\n51 - 17 = 34\n34",
     "A farmer has 51 cows. He sells 17 of them. The farmer had 51 cows and sold 17. 51 - 17 = 34. The farmer has 34 "
     "cows now."),
    ("Evaluate $(1+2i)6-3i$.", "$(1+2i)6-3i = 6+12i-3i = \\boxed{6+9i}$", "$(1+2i)6-3i = 6+12i-3i = 6+9i$."),
    # the chain-of-thought opening and "Step N:" / "Explanation:" labels go
    ("Jack had 8 pens and Mary had 5 pens. Jack gave 3 pens to Mary. How many pens does Jack have now?",
     "Let's think step by step. Jack started with 8 pens. He gave 3 to Mary, so 8 - 3 = 5. So the answer is 5.",
     "Jack had 8 pens and Mary had 5 pens. Jack gave 3 pens to Mary. Jack started with 8 pens. He gave 3 to Mary, so "
     "8 - 3 = 5. Jack has 5 pens now."),
    (_APPLES, "Let me think step by step: 5 + 3 = 8.\nAnswer: 8 apples",
     "Tom has 5 apples and buys 3 more. 5 + 3 = 8. Tom has 8 apples."),
    ("A restaurant served 9 pizzas during lunch and 6 during dinner today. How many pizzas were served today?",
     "Step 1: Lunch pizzas = 9.\nStep 2: Dinner pizzas = 6.\nStep 3: Total = 9 + 6 = 15.\nFinal answer: 15 pizzas",
     "A restaurant served 9 pizzas during lunch and 6 during dinner today. Lunch pizzas = 9. Dinner pizzas = 6. Total "
     "= 9 + 6 = 15. 15 pizzas were served today."),
    ("Rachel bought 8 music albums. Each album has 4 songs. How many songs did Rachel buy in total?",
     "Explanation: 8 albums with 4 songs each is 8 x 4 = 32 songs.\nAnswer: 32",
     "Rachel bought 8 music albums. Each album has 4 songs. 8 albums with 4 songs each is 8 x 4 = 32 songs. Rachel "
     "bought 32 songs in total."),
    # lines of working end at a blank line and before an equation's line
    ("Tom's garden is 15 meters long and 8 meters wide. What is the area of Tom's garden?",
     "Area = length × width = 15 × 8 = 120\n\nThe area of Tom's garden is $\\boxed{120}$ square meters.",
     "Tom's garden is 15 meters long and 8 meters wide. Area = length × width = 15 × 8 = 120. The area of Tom's "
     "garden is 120 square meters."),
    ("A pet store had 13 siamese cats and 5 house cats. During a sale they sold 10 cats. How many cats do they have "
     "left?", "13 + 5 = 18 cats\n18 - 10 = 8 cats\nThe answer is 8.",
     "A pet store had 13 siamese cats and 5 house cats. During a sale they sold 10 cats. 13 + 5 = 18 cats. 18 - 10 = 8 "
     "cats. They have 8 cats left."),
    # a plain last sentence after working that opens with an equation is the final answer; said once
    ("The siege began in 1529 and the city finally surrendered in 1532. How many years did the siege last?",
     "1532 - 1529 = 3\nThe siege lasted 3 years.",
     "The siege began in 1529 and the city finally surrendered in 1532. 1532 - 1529 = 3. The siege lasted 3 years."),
    ("Jake has 8 fewer peaches than Steven. Steven has 15 peaches. How many peaches does Jake have?",
     "Jake has 8 fewer, so 15 - 8 = 7.\n\nJake has 7 peaches.\n\n#### 7",
     "Jake has 8 fewer peaches than Steven. Steven has 15 peaches. Jake has 8 fewer, so 15 - 8 = 7. Jake has 7 "
     "peaches."),
    # word-problem frames
    ("Maria saves $6 every week. How much money will she have saved after 11 weeks?", "$66",
     "Maria saves $6 every week. Maria will have $66 saved after 11 weeks."),
    ("How much money did Tom spend?", "$5", "Tom spent $5."),
    ("A train travels 60 miles per hour. How far will the train travel in 4 hours?", "240 miles",
     "A train travels 60 miles per hour. The train will travel 240 miles in 4 hours."),
    ("How far did she run in the race?", "5 miles", "She ran 5 miles in the race."),
    ("Lisa read 45 pages on Monday and 38 pages on Tuesday. How many more pages did she read on Monday than on "
     "Tuesday?", "7",
     "Lisa read 45 pages on Monday and 38 pages on Tuesday. Lisa read 7 more pages on Monday than on Tuesday."),
    ("How many more goals did Messi score than Ronaldo?", "19", "Messi scored 19 more goals than Ronaldo."),
    ("It is 9:45 AM now. What time will it be in 2 hours and 30 minutes?", "12:15 PM",
     "It is 9:45 AM now. It will be 12:15 PM in 2 hours and 30 minutes."),
    ("What is the new date of the meeting?", "May 17, 2021", "The new date of the meeting is May 17, 2021."),
    ("When is the meeting?", "May 17, 2021", "The meeting is on May 17, 2021."),
    # a context sentence's fronted phrase is no part of the subject a pronoun stands for
    ("At the arcade Dave won 11 tickets. If he spent 5 tickets on a beanie, how many would he have?", "6",
     "At the arcade Dave won 11 tickets. If Dave spent 5 tickets on a beanie, he would have 6."),
])
def test_statement(question, answer, statement):
    assert rule_statement(question, answer) == statement


@pytest.mark.parametrize("answer", ["a = 2 so 3\n2*9", "Paris is the capital.\nFrance"])
def test_no_final_line(answer):
    """A last line that is arithmetic, or a word, is no lone final value: it stays in the answer's sentences."""
    from capqa.statements.rules.worked import final_line
    assert final_line(answer) == (answer, "")


def test_worked_statement_passes_the_check():
    question = "A baker made 24 cakes. He sold 15 of them. How many cakes does the baker have left?"
    answer = "24 - 15 = 9\n#### 9"
    assert statement_issues(question, answer, rule_statement(question, answer)) == []
