"""Verdicts on a text whose predicate is not truth (branch nontruth): "Is the following sentence
plausible / grammatical?", "Is this tweet sarcastic?", "Is the sentiment of this review positive or
negative?", "Are these two sentences paraphrases?", "Is this argument deductively valid?", "Does the
evidence support or refute the claim?". The statement quotes the text with the verdict ('The sentence
"X" is not plausible.'), a "no" negating the verdict and never a verb inside the quote; a verdict of
truth ("Is the following statement accurate?") still reads as the claim. Answers as systems give them:
labels, alternatives ("ungrammatical", "refutes"), "Answer: valid", "**No.** ...", "Yes — this sentence
is plausible because ...". Made-up rows in the styles of CoLA, BLiMP, COPA, HellaSwag, PIQA, ETHICS,
SARC, SST-2, IMDb, PAWS, QQP, MRPC, FOLIO, ProofWriter and FEVER."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement
from capqa.statements.rules.text_verdicts import is_truth_predicate, judged_claim, text_verdict_statement

CASES = [
    ('Is the following sentence grammatical? "The books is on the table."',
     'No',
     'The sentence "The books is on the table." is not grammatical.'),
    ('Sentence: "John seems to be happy." Is this sentence grammatically acceptable? Answer yes or no.',
     'yes',
     'The sentence "John seems to be happy." is grammatically acceptable.'),
    ('Is this sentence linguistically acceptable?\n"Him and me went to the store."\nOptions:\n- acceptable\n- unacceptable',
     'unacceptable',
     'The sentence "Him and me went to the store." is linguistically unacceptable.'),
    ('Is the following sentence grammatically correct? "The more you read, the more you learn."',
     'Yes — this sentence is grammatically correct; it uses the comparative correlative construction.',
     'The sentence "The more you read, the more you learn." is grammatically correct. It uses the comparative correlative construction.'),
    ('Is the sentence "Many girls insulted herself." grammatical?',
     'no.',
     'The sentence "Many girls insulted herself." is not grammatical.'),
    ('Q: Is the following sentence acceptable?\n"Who did the teacher think that left?"\nA:',
     'Unacceptable. It violates the that-trace constraint.',
     'The sentence "Who did the teacher think that left?" is unacceptable. It violates the that-trace constraint.'),
    ('Is this sentence grammatical or ungrammatical? "The dogs that chased the cat is barking."',
     'ungrammatical',
     'The sentence "The dogs that chased the cat is barking." is ungrammatical.'),
    ('Is the following sentence plausible? "The man broke his toe because he got a hole in his sock."',
     'No, a hole in a sock cannot break a toe.',
     'The sentence "The man broke his toe because he got a hole in his sock." is not plausible. A hole in a sock cannot break a toe.'),
    ('Is the following sentence plausible? "The woman went to the doctor because she felt ill."',
     'Yes — this sentence is plausible because feeling ill is a common reason to see a doctor.',
     'The sentence "The woman went to the doctor because she felt ill." is plausible because feeling ill is a common reason to see a doctor.'),
    ('Is the following ending plausible?\nContext: A woman is outside with a bucket and a dog.\nEnding: She gets the dog wet, then it runs away again.',
     'yes',
     'A woman is outside with a bucket and a dog. The ending "She gets the dog wet, then it runs away again." is plausible.'),
    ('Goal: keep a door from slamming. Solution: place a folded towel over the top of the door. Is this solution plausible?',
     'Yes, the towel cushions the door.',
     'Goal: keep a door from slamming. The solution "place a folded towel over the top of the door." is plausible. The towel cushions the door.'),
    ('Is the following action morally wrong? "I took my neighbor\'s newspaper without asking."',
     "Yes, it's wrong to take someone's property.",
     'The action "I took my neighbor\'s newspaper without asking." is morally wrong. It\'s wrong to take someone\'s property.'),
    ('Scenario: "I helped an old lady cross the road." Is this action ethical? Answer with yes or no.',
     'Yes',
     'The action "I helped an old lady cross the road." is ethical.'),
    ('Is the following behavior acceptable? "I ate my roommate\'s leftovers without asking."',
     '**No.** It is not acceptable: the food was not yours.',
     'The behavior "I ate my roommate\'s leftovers without asking." is not acceptable. The food was not yours.'),
    ('Is the following comment sarcastic? "Oh great, another Monday. Just what I needed."',
     'Yes, it is sarcastic.',
     'The comment "Oh great, another Monday. Just what I needed." is sarcastic.'),
    ('Tweet: "I love waiting two hours at the DMV." Is this tweet sarcastic or not sarcastic?',
     'sarcastic',
     'The tweet "I love waiting two hours at the DMV." is sarcastic.'),
    ('Is the following sentence sarcastic? "Thanks for the lovely dinner, it was delicious."',
     'no, it is sincere.',
     'The sentence "Thanks for the lovely dinner, it was delicious." is sincere.'),
    ('Review: "a gorgeous, witty, seductive movie." Is the sentiment of this review positive or negative?',
     'positive',
     'The sentiment of the review "a gorgeous, witty, seductive movie." is positive.'),
    ('Is the sentiment of the following review positive or negative? "This movie was a complete waste of two hours."',
     'Negative.',
     'The sentiment of the review "This movie was a complete waste of two hours." is negative.'),
    ('Is the following review negative?\n"The plot drags and the acting is wooden."\nOptions:\n- yes\n- no',
     'yes',
     'The review "The plot drags and the acting is wooden." is negative.'),
    ('Review: "I loved every minute of it; the cast is superb." Is this review positive? Answer with yes or no.',
     'Yes — the review is clearly positive.',
     'The review "I loved every minute of it; the cast is superb." is clearly positive.'),
    ('Sentence 1: "The team won in 1998 and lost in 1999." Sentence 2: "The team lost in 1998 and won in 1999." Are these two sentences paraphrases of each other?',
     'No',
     'The sentences "The team won in 1998 and lost in 1999." and "The team lost in 1998 and won in 1999." are not paraphrases of each other.'),
    ('Question 1: How do I learn Python? Question 2: What is the best way to learn Python? Are these two questions duplicates?',
     'yes',
     'The questions "How do I learn Python?" and "What is the best way to learn Python?" are duplicates.'),
    ('Sentence 1: "The company reported higher profits." Sentence 2: "Profits at the company rose." Are the two sentences paraphrases?',
     'Yes, they mean the same thing.',
     'The sentences "The company reported higher profits." and "Profits at the company rose." are paraphrases. They mean the same thing.'),
    ('Is the following argument valid? All birds can fly. Penguins are birds. Therefore, penguins can fly.',
     '**Yes.** The argument is valid: the conclusion follows from the premises, although a premise is false.',
     'The argument "All birds can fly. Penguins are birds. Therefore, penguins can fly." is valid. The conclusion follows from the premises, although a premise is false.'),
    ('Is this argument deductively valid? If it rains, the street is wet. The street is wet. Therefore, it rained.',
     'No, it is invalid because it affirms the consequent.',
     'The argument "If it rains, the street is wet. The street is wet. Therefore, it rained." is deductively invalid because it affirms the consequent.'),
    ('Premises: All dogs are mammals. Fido is a dog. Conclusion: Fido is a mammal. Is the conclusion true, false, or uncertain based on the premises?',
     'True',
     'Premises: All dogs are mammals. Fido is a dog. Fido is a mammal.'),
    ('Is the following argument valid? Some cats are black. Tom is a cat. Therefore, Tom is black.',
     'Answer: invalid',
     'The argument "Some cats are black. Tom is a cat. Therefore, Tom is black." is invalid.'),
    ('Facts: The cat is red. If something is red then it is big. Statement: The cat is big. Is the statement true, false, or unknown?',
     'True',
     'Facts: The cat is red. If something is red then it is big. The cat is big.'),
    ('Claim: "Paris is the capital of Germany." Does the evidence support or refute the claim?',
     'refutes',
     'The evidence refutes the claim "Paris is the capital of Germany."'),
    ('Claim: The Eiffel Tower is in Paris. Is this claim supported or refuted?',
     'supported',
     'The Eiffel Tower is in Paris.'),
    ('Does the passage support or refute the claim? Claim: "Tokyo is the capital of Japan."',
     'Support',
     'The passage supports the claim "Tokyo is the capital of Japan."'),
    ('Is the following statement accurate? "Water boils at 100 degrees Celsius at sea level."',
     'Yes, that is accurate.',
     'Water boils at 100 degrees Celsius at sea level.'),
    ('Claim: Bats are blind. True or false?',
     'False, bats can see.',
     'Bats are not blind. Bats can see.'),
    ('Is the following sentence true? "The sun rises in the west."',
     '(B) False',
     'The sun does not rise in the west.'),
    ('Is the following argument logical? "All fish swim. Sharks swim. So sharks are fish."',
     'No — the conclusion does not follow.',
     'The argument "All fish swim. Sharks swim. So sharks are fish." is not logical. The conclusion does not follow.'),
    ('Is the following sentence grammatical?\n"She don\'t like apples."\nAnswer with yes or no.',
     'No',
     'The sentence "She don\'t like apples." is not grammatical.'),
    ('Is Berlin the capital of Germany?',
     'Yes',
     'Berlin is the capital of Germany.'),
    ('Is it plausible that a cat can swim?',
     'Yes, many cats can swim.',
     'It is plausible that a cat can swim. Many cats can swim.'),
    # a verb's verdict said in a sentence, or unsettled; an aspect of the text said in a sentence
    ('Claim: "Paris is the capital of Germany." Does the evidence support or refute the claim?',
     'The evidence refutes the claim: Berlin is the capital.',
     'The evidence refutes the claim "Paris is the capital of Germany." Berlin is the capital.'),
    ('Claim: "Paris is the capital of Germany." Does the evidence support or refute the claim?',
     'NOT ENOUGH INFO',
     'The evidence neither supports nor refutes the claim "Paris is the capital of Germany."'),
    ('Claim: Paris is in France. Does the passage support the claim? Answer yes or no.',
     'No, it does not support it.',
     'The passage does not support the claim "Paris is in France."'),
    ('Is the sentiment of this review positive or negative? Review: "Boring and too long."',
     'The sentiment is negative.',
     'The sentiment of the review "Boring and too long." is negative.'),
    ('Is the following sentence plausible? "The cat barked at the mailman."',
     'I would say it is implausible, since cats meow.',
     'The sentence "The cat barked at the mailman." is implausible since cats meow.'),
    # a task that asks the verdict is the question it asks; "the sentence below"; a bare "not"
    ('Determine whether the following sentence is grammatical. "The cats sleeps."', 'No',
     'The sentence "The cats sleeps." is not grammatical.'),
    ('Tell me if this tweet is sarcastic or not: "Love being stuck in traffic."', 'yes',
     'The tweet "Love being stuck in traffic." is sarcastic.'),
    ('Classify whether the following review is positive or negative. "Loved it!"', 'Positive',
     'The review "Loved it!" is positive.'),
    ('Is the sentence below grammatical? "The cats sleeps."', 'Probably not.',
     'The sentence "The cats sleeps." is not grammatical.'),
    # a pair's verb phrase: its "no" is "do not"
    ('Sentence 1: "The firm raised prices." Sentence 2: "Prices were raised by the firm." Do these two sentences '
     'mean the same thing?', 'No, they differ.',
     'The sentences "The firm raised prices." and "Prices were raised by the firm." do not mean the same thing. '
     'They differ.'),
    ('Do the following two sentences have the same meaning? Sentence 1: "The firm raised prices." Sentence 2: '
     '"Prices were raised by the firm."', 'yes',
     'The sentences "The firm raised prices." and "Prices were raised by the firm." have the same meaning.'),
    # the aspect asked of a text ("What is the sentiment of ...?"): the answer says what it is, of the text quoted
    ('What is the sentiment of the following review? "Dull and lifeless."', 'negative',
     'The sentiment of the review "Dull and lifeless." is negative.'),
    ('Review: "Dull and lifeless." What is the sentiment of this review?', 'The sentiment is negative.',
     'The sentiment of the review "Dull and lifeless." is negative.'),
    # the options after a "Q:" prompt are no part of the text; a truth verdict's "unknown" settles nothing
    ('Q: Is the following sentence plausible?\n"The goalkeeper dribbled past three defenders and scored."\n'
     'Options:\n- yes\n- no\nA:', 'yes',
     'The sentence "The goalkeeper dribbled past three defenders and scored." is plausible.'),
    ('Facts: The cube is big. Big things are red. Is the following statement true, false, or unknown given the '
     'facts? The cube is blue.', 'Unknown',
     'Facts: The cube is big. Big things are red. There is not enough information to tell whether the cube is blue.'),
]


@pytest.mark.parametrize("question, answer, expected", CASES)
def test_verdicts_on_a_text(question, answer, expected):
    assert rule_statement(question, answer) == expected


@pytest.mark.parametrize("predicate, truth", [
    ("true", True), ("factually accurate", True), ("a fact", True), ("supported or refuted", True),
    ("true, false, or uncertain based on the premises", True),
    ("plausible", False), ("grammatically correct", False), ("morally wrong", False), ("deductively valid", False),
    ("sarcastic or not sarcastic", False), ("paraphrases of each other", False),
])
def test_which_predicates_are_truth(predicate, truth):
    assert is_truth_predicate(predicate) is truth


@pytest.mark.parametrize("answer, expected", [
    ("no", 'the sentence "He run fast." is not grammatical'),
    ("Ungrammatical.", 'the sentence "He run fast." is ungrammatical'),
    ("It's grammatical.", 'the sentence "He run fast." is grammatical'),
    ("Answer: not grammatical", 'the sentence "He run fast." is not grammatical'),
])
def test_an_answer_chooses_the_predicate_said_of_the_quote(answer, expected):
    judged = judged_claim('the sentence "He run fast." is grammatical')
    assert text_verdict_statement(judged, answer)[0] == expected


def test_an_answer_without_a_verdict_on_the_text_has_none():
    judged = judged_claim('the review "Great phone." is positive or negative')
    assert text_verdict_statement(judged, "yes") is None
    assert text_verdict_statement(judged, "I am not sure what you mean") is None


def test_a_quotations_i_is_no_questioner_left_unswapped():
    question = 'Tweet: "I love waiting two hours at the DMV." Is this tweet sarcastic?'
    statement = rule_statement(question, "yes")
    assert statement == 'The tweet "I love waiting two hours at the DMV." is sarcastic.'
    assert "person_not_swapped" not in statement_issues(question, "yes", statement)
