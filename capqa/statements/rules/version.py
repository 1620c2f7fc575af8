"""The rule converter's identity: its version and the parser it runs on.

``RULES_VERSION`` changes whenever the converter's statements may change (a new rule, a fixed
one); ``engine_identity()`` is what the scorer's identity records when rule statements ran.
"""

import importlib.metadata
from typing import Dict

from capqa.records.identity import StatementIdentity
from capqa.statements.rules.language import detector_version
from capqa.statements.rules.parser import parser_identity

# 1: the regular-expression converter; 2: questions and answers analysed with spaCy's parse;
# 3: sentences to complete read from the joined parse of stem and answer (exam questions);
# 4: a search query parsed as the question it stands for (queries.py), answers' ordinary words
# not title-cased; 5: a question or answer that is not English passed through as its answer
# (language.py), where 4 wrapped it in an English template.
# 6: how-to goals, imperative titles and code tasks stated with their steps or code ("To X, you
# Y.", "You can X with CODE", howto.py), code and arithmetic kept as written (asterisks, fence tags,
# the code's own case), a worked answer's lines as sentences before its final answer ("A: 18"), a
# list after a colon joined into its line, fronted clauses before an inverted auxiliary, dash heads,
# "Topic: question" titles and the questioner's "I" as "you"; code answering an English question is never
# read as another language.
# 7: an answer's pronoun resolved to the question's phrase in the same role at the same verb ("It
# flows into ...", "won it"), an answer that restates the whole question kept as it is, a telegraphic
# title's bare singular count nouns given articles ("save a list to a file"), two-word tasks whose first
# word is only a verb ("encode url").
# 8: code kept byte for byte (code.py: no citation, emphasis or heading stripped from it, its case put back
# after a lower-case query's casing, a code answer never cut into sentences), code tasks read from the parse
# whatever their capitals (a step's calls parsed as "it", a step split from a claim after its semicolon, "CODE,
# which ..."), a topic query answered with code as "For a TOPIC, you can use CODE", and "How much/many [N]
# COMPARATIVE ... than Y?" stated as "X is D COMPARATIVE than Y".
# 9: a time answer given its preposition wherever the question asks for it: "What year was X born?" read as
# a time question ("born in 1995"), a year followed by its own clause ("in 1976, when ..."), "in the summer of 1521".
# A noun whose "of" complement coordinates two determined noun phrases takes "the" ("the combination of a loop
# and a roll").
# 10: an answer's own sentence given the question's conditions it does not state (conditions.py: a fronted
# phrase of time or source, a condition set off by its comma, a trailing condition clause put in front),
# "They" resolved to a plural subject by its tag, "This/That is called X" to "What is X?"'s subject, a
# locative "there" to the question's one named place, and a step whose bare verb the tagger misreads read
# as the verb that takes "you" ("Spray/NN with water" -> "you spray with water"); "Find / Calculate X."
# answered with steps read as a goal ("To find X, you Y."); the memory hedges "If I remember right", "If memory
# serves", "If I'm not mistaken" dropped.
# Also in 10: a LaTeX formula ("$x^2$", "\\[...\\]") is held like code while markup is cleaned
# (its "^2" is no citation mark); a question's trailing instruction ("Express your answer as ...",
# "(Do not use a calculator!)") goes and a bracketed note joins the context; "Compute: / Evaluate /
# Simplify X" state X; a stem ending in a relative clause (", which means that") is completed.
# An answer's subject cut short ("The constant term is 125.") takes the question's complement; a markdown
# blockquote mark ("> ") goes. A fronted "When" clause before the question's own wh-word is its lead, not its
# wh-word ("When water boils, what ...?" + "steam"); "Find a/an/this X." takes no "the" before its determiner.
# 11: wh-questions: the relative "that" of "What N ...?" after the phrase's own modifier (a relative clause of
# the phrase joined with "and", a copula kept before a participle with a second verb); a noun phrase set off by
# a dash before a clause is the answer, the clause a sentence of its own; "How many N" + "Four: A, B ..." puts
# the count in the frame and the items after a colon, and a counted phrase ends at a verb tagged as a noun; a
# demonstrative subject before a colon ("These are costs which ...:") takes the answer's place; a bare compound
# of nouns takes "the" as the subject or agent asked for; names joined by "and" are plural after "does"; a
# quantifier floated after the subject ("X and Y both include") goes with the verb phrase; a relative "who"
# after a noun is no wh-word in place, and "how many N" in place keeps N; a title's colon opens no choices;
# "What caused X to V?" stays active; a participle after a number is an adjective; an adjective before a
# stranded preposition is the predicate's; a relative clause after the verb goes back after its noun; a doubt
# appended as a clause goes; a title-cased answer without a full stop is a name; an amount answering "What
# were the N?" is what they came to; "Which of the N that ... V?" leads with its partitive; a title's "Back to
# the Future" stays in the wh-phrase. Also in 11: the pair is read as it prints (a NUL, zero-width, BOM or bidi
# character dropped before the conversion: "Who wrote Faust?\x00" kept its "?").
# Also in 11, word problems and option questions: an option that is a clause or a verb phrase put in the
# frame (option_clauses.py: "A crew building a bridge shows ...", "The most likely effect of X is that ...",
# "Blowing up a balloon could be done ..."; a question asking which statement holds keeps the option's
# sentence), an option's trailing letter dropped ("Water (B)"); a task under a condition ("If X, then find
# Y." / "Find Y if X.") stated under it, "Find all N" stating the set, the task's object completing a cut-short
# subject ("The remainder when ... is 3."), an instruction after a task dropped; a count's noun not doubled
# ("two boxes of pizza"), "how many N" in situ, "one hundred ..." plural, "which N" in situ with an adjective
# answer definite; an "it" before "take/cost ... to" not resolved, a context subject without its fronted
# phrase; a trailing condition with its coordinated clause; a stem said again with a pronoun, a sentence cut
# short of the question's complement ("No system is needed for a body to ..."); a display formula's "\]"
# and a formula's full stop end sentences; worked bullet lines ("- 40 h × $10 = $400") are sentences.
# An option letter before its text and a dash ("(B) its gills — ..."), or before a comma ("A, a tiger
# hunting ..."), goes; "I get N" and a trailing "though I'd double-check" are hedges; a disclaimer's "but" keeps
# a two-word answer ("..., but a town.").
# 12: answer formatting and the words around the answer (branch answerform): a markdown table is a list of its
# rows ("Saturn and Jupiter (faint) have rings"; a worked table its total; beside prose it goes), an opening that
# restates the question before a colon and a list goes; "What V O?" keeps the active voice with the answer as its
# subject ("A thermometer measures temperature": a heavy answer keeps the passive), a lone count noun given its
# article; "what measures | air pressure" read with its verb; function words said twice at a join said once
# ("because because", "so therefore"); underscores inside a word ("__init__") are code, no blank; a question's
# inline code loses its backticks; a code identifier opening a sentence keeps its case ("x_1 denotes"); a "where"
# answer that is a lone count noun takes "in the" ("in the chest"), and one after "The N that ... is" takes "a"
# ("is a saw"; not after a name or term: "The common name of X is collarbone").
# 12: (negperson) negative answers negate the question's frame: "none"/"neither" before the wh-phrase ("No oceans
# border ...", "Neither of the two brothers ..."), "There isn't one" read as "none", "What is the X?" + none ->
# "There is no X"; a denial before its reason ("It hasn't; ...", "You can't; ...", "That never happened.") negates
# the question's clause (with the answer's modal); a why-question's "Actually, X was not ..." kept as the
# correction; the system's "you" becomes the answer's "I" where it speaks as "I"; quoted text keeps its person
# ('I think, therefore I am'); "It's from X" to "Who wrote Y?" states Y is from X; a lower-case negative
# subject opens a sentence; a negative answer's concession ("none, though ...") stays in its sentence; a pronoun
# is not resolved to a noun phrase of the question's condition clause; then "How many times ...?" + "never" says
# "X has never ...", a denial that says the question's verb again ("It doesn't breathe, ...") or keeps an adverb
# ("it hasn't officially") negates the question's clause, a wh-subject's "by X" answer is its agent, and the
# answer's "I" must say what it is or can do ("I am", "I can't"), not what it would advise, to take the "you".
# 12: question shapes (qshapes): a degree's particle is the wh-phrase's ("How far away is X?" -> "X is 384,400
# km away", "How long ago was X built?" -> "X was built 2,000 years ago"), a copula's degree goes after a passive
# participle or "allowed to be", and only a dimension's adjective follows a measure ("330 m tall", not "5,500
# degrees hot"); "How much longer did X V than Y?" finds its comparative by its form, "How much faster is light
# than sound?" keeps the wh-phrase out of the subject, a named subject's phrase goes with the comparison ("Mars
# is ... farther from the Sun than Earth"), a difference that ends with the comparative is not given it again;
# an imperative answer to "Best way to X?" / "What is the best way to X?" / "Tips for X?" is the infinitive
# ("The best way to X is to VP"; bare after "to do": "The thing to do is put it ..."); a topic's label before a task title ("Git: undo last commit?") and a topic
# asked about by a bare "why?" ("Laptop battery draining fast -- why?") read as the task and the question; a
# shell command ("git reset --soft HEAD~1") is code; a "why" answer that the parse shows is a clause takes
# "because", not "because of"; a noun-phrase query's answer with a number's comma or one comma is no list, and
# its title capital goes after "the". Also: an adverb the tagger calls otherwise is a degree's particle ("how far
# downstream"), a short adjunct before the inversion is the degree's phrase ("How soon before a flight should you
# arrive?" -> "... two hours before a flight"), and a participle the parse hangs on a copula's subject, with only
# stranded prepositions, particles or an adjective after it, is the verb phrase's ("What is the chair made out
# of?" -> "The chair is made out of oak", "What were her muscles requiring?" -> "... were requiring ..."); a
# compound's head before "not" is the subject's ("Why is the bread dough not rising?").
# 12, merged (lead): a course of action is asked for by its head noun ("the best way to X", "the first thing to
# do"), not by any infinitive ("the best books to learn Python" + a title that opens with a verb stays as said);
# a clause after "because" loses its opening capital unless the parse reads a name ("because air scatters ...");
# a copula the parse makes the auxiliary of an -ing verb after the subject leaves that verb to the predicate ("What
# is she holding?" -> "She is holding ..."); a predicate noun after the subject with its preposition stranded ("Who
# was Zeus the father of?") is the predicate, not the subject's end.
# 12: (convwide) a lower-case -ing verb after a name the parse hangs on it is the progressive's ("Who is Mary
# meeting/NN tomorrow?", "What was Alice reading/NN?" -> "Alice was reading ..."; "Who is Tom calling?" no longer
# the fallback); a particle before a determiner is a preposition, the object asked for going before it ("Brady
# threw two touchdowns in the second half"); a label saying one item follows its colon goes ("Only one: Spain.");
# a linking verb's adjective answer to "how" goes right after the verb ("felt happy at the end of the story");
# "Which of the following is the next step?" and a "step"/"action" ask for a course of action ("... is to order a
# CT scan"); a bare answer to "Which is faster, a cheetah or a horse?" takes the option's determiner; a "how"
# answer that is an adjective or adverb after degree adverbs ("very tired", "quite politely") takes no "through";
# a bare lower-case venue noun answering "where" is "in the garden" (a venue's name stays "at"); "-itis" is mass;
# "Where was X before the Y?" puts the place after the copula, before the time phrase.
# 12: (judgeq) a prompt that asks a verdict on a sentence of its own is read as that claim: after it ("The sun is a
# planet. True or false?", "Claim: X. Is this claim supported, refuted or not enough info?"), before it ("Is the
# following statement correct? X"; "Is the following argument valid? A. B." -> 'The argument is valid: "A. B"',
# the quote last, so that a "no" negates the verdict's copula, not a verb in the quote; single quotes too;
# "Does the following sentence make sense? X" -> 'The sentence "X" makes sense'), an inference's hypothesis
# ("Premise: P Hypothesis: H Does the premise entail the hypothesis?" -> "The premise entails that H", "...
# contradicts that H", "... neither entails nor contradicts that H"); the answer's verdict word ("REFUTES",
# "Fiction", "entailment", "Not enough info" -> "There is not enough information to tell whether X"), said of the
# claim ("The statement is false.", "It is refuted; ...") or after a concession ("That's a common myth, but it's
# false") affirms or negates it, and an echo after it ("Yes, that's correct.", "No, it is not.") goes; an
# instruction or verdict options after the claim go ("Explain briefly.", "Options: yes, no"); an answer that says or denies a yes/no
# question's own predicate is its yes or no ("It is not plausible because ..." -> "It is not plausible that X,
# because ..."); "A: yes or no" after a question goes; "Lightning never strikes" negates as "It is not true that
# lightning never strikes" (no "never does not"); "which of these two planets" keeps its count; "Sentence B: ..."
# is an option (answered "Sentence B"), and a statement option said to be other than true is quoted ('The
# sentence "He put an elephant into the fridge" is against common sense').
# 12: (worked) a worked answer's final answer is read from its label whatever its opening ("The answer is 7",
# "So the answer is 5." no longer kept raw: a possessive space took the label's gap; "Therefore, the answer (arabic
# numerals) is 39", "The answer is: 17"), GSM8K's "#### 9", a "\boxed{70}" (unboxed everywhere: "= \boxed{6+9i}"
# -> "= 6+9i"), a lone final value after reasoning ("51 - 17 = 34" + "34"), or a plain last sentence after a
# first one that is an equation ("1532 - 1529 = 3" + "The siege lasted 3 years."); "Let's think step by step" and
# "Step 2:" / "Explanation:" labels go; a working line ends before a blank line or an equation's line ("14 - 3 = 11"
# / "11 + 39 = 50"); the working's last sentence that is the statement is said once. Word-problem frames: "How much
# money" + "$5" takes no noun ("Tom spent $5"); a "how far" distance goes before the adjuncts ("travel 240 miles in 4
# hours"); "how many more N ... on A than on B" puts the difference before the adjuncts ("read 7 more pages on
# Monday than on Tuesday"); "What time will it be in 2 hours?" -> "It will be 12:15 PM in 2 hours"; a date's month
# keeps its capital ("May 17, 2021"); a context sentence that opens with a preposition gives a pronoun its subject
# only after the phrase ("At the arcade Dave won" -> Dave) or none ("For Halloween Debby and her sister ...").
# 12: (choices) options in more formats: a bracket touching its text ("A)12 B)15"), numbered ("...? 1. x 2. y",
# an answer "3" or "3. x" names option 3) or bulleted ("Choices: - x - y") after the question or its label; a
# letter with its option in brackets ("B (BCG), since ...") is that option; a worked answer's last sentence
# "So / Therefore the answer is (C)." or "X, so B." is its final answer, the letter the option's text, the
# working kept before it ("Plants take in CO2 ... . The gas plants absorb ... is carbon dioxide."), and a
# final label with no colon now reads ("So the answer is 284."); "Let's think / analyse ..." is a filler
# sentence; "Which of these is TRUE according to the passage?" asks for a statement (the option's sentence kept);
# letters alone are their options joined ("A and C" -> "Whale and bat are mammals."), "B is the correct answer
# because ..." is option B and its reason, and "Answer: B. Force is measured in newtons." is option B and a claim
# of its own where the sentence does not say the option again ("D. TNCs are not ..." stays the answer's words).
# 13: (nontruth) a verdict on a text whose predicate is not truth quotes the text with the verdict ('Is the
# following sentence plausible? X' + no -> 'The sentence "X" is not plausible.'; "Is this tweet sarcastic or not
# sarcastic?", "Are these two sentences paraphrases?", "Does the evidence support or refute the claim?" + refutes ->
# 'The evidence refutes the claim "X".'); truth predicates (true, accurate, a fact, supported) still state X.
# 13: (structq) structured-data questions (code_answers.py): a SQL query says what it finds ("How many heads ... are
# older than 56?" + "SELECT count(*) ..." -> "The SQL query that finds the number of heads ... that are older than
# 56 is SELECT count(*) ..."; "List X" -> "The SQL query that lists X is ..."), a request to write code keeps its
# words as the code's description ("A Python function that ... is: def ...", an opener "Here's ..." dropped), a
# function's stub answered with its body ("The body of the function f(n: int), which returns ..., is: ..."),
# "Given X, return Y." keeps its condition ("Given an array nums, you can return ... with: ..."); a block of code
# (a header and lines indented under it: its "def" line no longer cut), a bare SQL query and a shell command with
# a "." argument are code; a lower-case variable before a full stop ends a sentence ("... a string s. Print ...");
# "#4" is no heading; an article the code names a variable keeps its capital ("A program ..."); table questions:
# a participle after a superlative or ordinal describes the subject ("John Smith was the first player drafted"),
# a subject's comma phrase is closed ("The total ..., in millions, is 1,234.5"), a comparative after the noun is
# the predicate ("The attendance was not higher in 2010 than in 2011"); a query after "The query is:" or in
# backticks reads the same; an instruction carried out by a command reads "You can list ... with find ...".
# 13: (mathfinal) a final answer worked out in its own sentence answers with its equation chain's last value, its
# currency and unit ("Cost Price = 240 + 60 = Rs.300" -> "... Cost Price = 240 + 60 = Rs.300. The cost price of
# the article is Rs. 300."; "5a = 45, so a = 9 cents", a last "so its perimeter is 6 * 7 = 42 inches" after
# working, "Let w be the width." as working); an option's key with a "because / since" reason is the option's text
# and the reason a sentence ("(B), because it is a gas giant." -> "Jupiter is the largest planet ... It is a gas
# giant."); an amount's words that the how-many frame says again go ("She has 12 left." -> "Jenny has 12 stickers
# left."), an object pronoun of a restated verb ("It would take them 3 hours" -> "It would take 8 workers 3
# hours"), "$243 dollars" is "$243"; frames: "How many times as X as Y is Z?", "What percentage of N is absent?",
# ", by what percent did X increase?", "would this be", "is he, in a direct line, from X", "Solve E for v", a
# pronoun of a non-copular verb for the subject's possessor ("its speed" + "It travels ..." -> "A car travels"),
# "his" / "its" after an owned antecedent ("Joe's income ... his expenses" -> "Joe's expenses"), "It will take her |
# 5 days | to read", "Sara will be | 17 in 5 years", "He'd earn $50." as the restated verb's answer.
# 13: (lead) "Rs." is an abbreviation, so "Rs. 300" ends no sentence; a comma that closes an earlier aside opens none
# ("The actual distance, in miles, from F to G is 800", where structq's aside rule put a comma before "is").
# 13: (leftovers) "How much does this cost?" + "$125" -> "This costs $125." (a demonstrative subject of do-support);
# "its" takes the thing, "his" / "her" a person of its gender ("Tom bought a bike. What was its price?" -> "The
# bike's price"); "show me / give me X" states X ("The flights from Denver to Boston are ..."); "which states |
# border texas", "what states | border nevada"; "It took 17 years for the team to win ..." ("It took Apple 42
# years." says Apple once); a factorial's "!" kept ("5! is 120"); "python - how to X" read as "How to X"; an index
# in code ("df.iloc[0]", "x[1])") is no citation.
# 13: (wideq) questions of benchmarks nobody tuned on (FreebaseQA, EntityQuestions, QALD, SciQ): an adjective
# opening a name keeps its capital ("in new Jersey" -> "in New Jersey"); a predicate's count noun in situ takes its
# article ("A spinone is dog." -> "A spinone is a dog."), a kind of a mass noun does not ("is a jazz" -> "is jazz");
# an answer's "It" names an in-situ question's subject ("It is defined as 0 ..." -> "Absolute zero is defined ...");
# "Give me all N" asks for the whole set ("Some of the me all Argentine films" -> "The Argentine films"), "people" is
# plural; a prefixed verb ("co-founded") keeps the answer's sentence; "this" asks where no wh-word does ("... rather
# than this smoke and ash" -> "... rather than smoke and ash"); "whose sons" + "the sons of Noah" takes the answer
# whole; names sharing a role take it in the plural ("Larry Page and Sergey Brin were the founders of Google"); a
# slash joins the nouns of a wh-phrase in situ ("the founder of adidas /equipment company" -> "of adidas").
RULES_VERSION = "13"


def engine_identity() -> Dict[str, str]:
    """{"version", "parser", "spacy", "lemminflect", "pycld2"}: what produced the rule statements
    (loads the parser: identity is taken from what actually runs; pycld2 decides which texts are
    not English and so passed through; ``"absent"`` where it is not installed)."""
    return {"version": RULES_VERSION, **parser_identity(),
            "lemminflect": importlib.metadata.version("lemminflect"), "pycld2": detector_version()}


def rules_identity() -> StatementIdentity:
    """The rule converter's ``StatementIdentity``, for the scorer's record."""
    return StatementIdentity("rules", tuple(engine_identity().items()))
