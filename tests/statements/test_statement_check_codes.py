"""Each code of statement_issues on a small hand-made case: a statement it flags and a sound one
close to it that it does not (issue 31 item 3). The cases are written here, not taken from the
statement corpus."""

import pytest

from capqa.statements.check import ISSUES, statement_issues

# code -> (question, answer, a statement with the fault, a sound statement for the same pair)
CASES = {
    "not_english": ("Кой е написал Фауст?", "Гьоте", "The Кой е написал Фауст is Гьоте.", None),
    "fragment": ("Who designed the Eiffel Tower?", "**Gustave Eiffel** — the engineer whose company built it.",
                 "Gustave Eiffel — the engineer whose company built it.",
                 "Gustave Eiffel designed the Eiffel Tower; he was the engineer whose company built it."),
    "imperative_sentence": ("How do you boil an egg?", "Put it in boiling water for ten minutes.",
                            "Put it in boiling water for ten minutes.",
                            "To boil an egg, you put it in boiling water for ten minutes."),
    "inverted_order": ("Which painter did Pablo Picasso admire most?", "Paul Cézanne",
                       "Paul Cézanne painter did Pablo Picasso admire most.", "Pablo Picasso admired Paul Cézanne most."),
    "wh_in_place": ("The author of Dracula was born in what city?", "Dublin",
                    "The author of Dracula Dublin was born in what city.", "The author of Dracula was born in Dublin."),
    "agreement": ("What profession do Marie Curie and Pierre Curie share?", "physicist",
                  "Marie Curie and Pierre Curie has the same profession: physicist.",
                  "Marie Curie and Pierre Curie have the same profession: physicist."),
    "determiner_missing": ("Where does the river Nile flow into?", "mediterranean sea",
                           "The river Nile flows into mediterranean sea.",
                           "The river Nile flows into the mediterranean sea."),
    "unresolved_pronoun": ("Who painted the Night Watch?", "Rembrandt painted it in 1642.",
                           "Rembrandt painted it in 1642.", "Rembrandt painted the Night Watch in 1642."),
    "question_missing": ("A shop sells pens at $2 each. If Tom buys 7 pens and pays with a $20 note, how much change "
                         "does he get?", "He gets $6.", "A shop sells pens at $2 each. He gets $6.",
                         "A shop sells pens at $2 each. If Tom buys 7 pens and pays with a $20 note, he gets $6."),
    "code_altered": ("How do I count the rows of a table in SQL?", "`SELECT COUNT(*) FROM t;`",
                     "SELECT COUNT() FROM t counts the rows of a table.",
                     "SELECT COUNT(*) FROM t counts the rows of a table."),
    "lines_joined": ("How many legs do 3 spiders have?", "Each spider has 8 legs\nSo 3 spiders have 24 legs",
                     "Each spider has 8 legs So 3 spiders have 24 legs.",
                     "Each spider has 8 legs. So 3 spiders have 24 legs."),
    "markup_left": ("Which planet has rings?", "| planet | rings |\n|---|---|\n| Saturn | yes |",
                    "| planet | rings | |---|---| | Saturn | yes | has rings.", None),
    "label_left": ("How many sides does a hexagon have?", "A hexagon has six sides.\nA: 6",
                   "A hexagon has six sides. A: 6.", "A hexagon has six sides."),
    "options_left": ("Which gas do plants absorb? (A) oxygen (B) nitrogen (C) carbon dioxide (D) helium", "C",
                     "Plants absorb (A) oxygen (B) nitrogen (C) carbon dioxide.", "Plants absorb carbon dioxide."),
    "missing_preposition": ("When was the Eiffel Tower completed?", "1889", "The Eiffel Tower was completed 1889.",
                            "The Eiffel Tower was completed in 1889."),
    "capital_inside": ("To keep bread fresh,", "Store it in a paper bag.",
                       "To keep bread fresh you should Store it in a paper bag and then Keep it dry.",
                       "To keep bread fresh, you store it in a paper bag."),
    "negative_as_thing": ("Which oceans border Switzerland?", "none", "One ocean that borders Switzerland is none.",
                          "Switzerland is not on any ocean."),
    "person_not_swapped": ("How do I reset my router?", "Hold the reset button for ten seconds.",
                           "I reset my router by holding the reset button for ten seconds.",
                           "You reset your router by holding the reset button for ten seconds."),
    "auxiliary_misplaced": ("When was the Magna Carta first sealed?", "1215",
                            "The Magna Carta first sealed was in 1215.", "The Magna Carta was first sealed in 1215."),
    "answer_in_frame": ("What is the Saxon Garden called in Polish?", "In Polish the Saxon Garden is called Ogród Saski.",
                        "The Saxon Garden is in Polish the Saxon Garden is called Ogród Saski.",
                        "In Polish the Saxon Garden is called Ogród Saski."),
    "doubled_word": ("In Greek mythology, who was Zeus's father?", "In Greek mythology, Cronus was Zeus's father.",
                     "In Greek mythology, in Greek mythology, Cronus was Zeus's father.",
                     "In Greek mythology, Cronus was Zeus's father."),
    "echoed_question": ("convert int to string", "`str(42)` gives '42'.", "The convert int to string is str(42).",
                        "str(42) converts an int to a string."),
    "pronoun_start": ("What do bees make?", "They make honey.", "They make honey.", "Bees make honey."),
    "frame_lost": ("Where was Harry Potter and the Philosopher's Stone shot?", "The film was shot in England.",
                   "The film was shot in England.",
                   "The film Harry Potter and the Philosopher's Stone was shot in England."),
    "split_possessive": ("Which university's medical school did she attend?", "Johns Hopkins University",
                         "She attended Johns Hopkins University 's medical school.",
                         "She attended Johns Hopkins University's medical school."),
    "participle_as_verb": ("Which painter born in 1881 founded Cubism?", "Pablo Picasso",
                           "The painter that born in 1881 founded Cubism is Pablo Picasso.",
                           "The painter born in 1881 who founded Cubism is Pablo Picasso."),
    "clause_as_subject": ("Which of the following statements is correct?\nA. Cutting sugar lowers weight\nB. Sugar is "
                          "a protein", "A", "Cutting sugar from the diet lowers weight but raises hunger is correct.",
                          "Cutting sugar from the diet lowers weight but raises hunger."),
    "clause_unclosed": ("Who was the first emperor of Rome?", "Probably Augustus, though I am not sure of the dates.",
                        "Augustus, though I am not sure of the dates was the first emperor of Rome.",
                        "Augustus, though I am not sure of the dates, was the first emperor of Rome."),
    "word_split": ("How many two-digit primes are there?", "21", "There are 21 two - digit primes.",
                   "There are 21 two-digit primes."),
    "preposition_stranded": ("What is the bridge made of?", "steel", "The bridge is made of.",
                             "The bridge is made of steel."),
    "formula_in_frame": ("Anna buys 4 pens at $2 each and a $5 notebook. How much does she spend?",
                         "4 x $2 = $8, plus $5 = $13.",
                         "Anna buys 4 pens at $2 each and a $5 notebook. Anna spends 4 x $2 = $8, plus $5 = $13.",
                         "Anna buys 4 pens at $2 each and a $5 notebook. 4 x $2 = $8, plus $5 = $13. Anna spends "
                         "$13."),
    "quote_asserted": ("Is the following sentence plausible? \"Lionel Messi scored a touchdown in the Super Bowl.\"",
                       "No, Messi plays soccer.", "Lionel Messi did not score a touchdown in the Super Bowl.",
                       "The sentence \"Lionel Messi scored a touchdown in the Super Bowl.\" is not plausible. "
                       "Messi plays soccer."),
    "slot_mismatch": ("Why did the Roman Empire fall?", "economic troubles",
                      "The Roman Empire fell because economic troubles.",
                      "The Roman Empire fell because of economic troubles."),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_code_flags_its_fault_and_not_the_sound_statement(code):
    question, answer, faulty, sound = CASES[code]
    assert code in statement_issues(question, answer, faulty)
    if sound is not None:
        assert statement_issues(question, answer, sound) == [], sound


def test_every_code_added_for_issue_31_has_its_case():
    older = {"wh_start", "auxiliary_start", "question_mark", "imperative_start", "semicolon_join", "answer_missing",
             "blank_left", "article_mismatch", "copula_before_verb", "article_before_verb", "fallback_form", "empty"}
    assert set(ISSUES) - older <= set(CASES)


def test_a_non_english_pair_gets_that_code_alone():
    assert statement_issues("Кой е написал Фауст?", "Гьоте", "Гьоте") == ["not_english"]
    assert statement_issues("Who wrote Faust?", "Goethe", "Goethe wrote Faust.") == []


# Codes widened after the tune split's unflagged bad statements were read: each case a faulty
# statement, and a sound one close to it (None: the faulty one's look-alike that must pass).
WIDENED = [
    # "born" after a passive auxiliary needs its "in"; a parenthesised "(born 1921)" does not
    ("missing_preposition", "When was the poet Anna Blake born?", "1921", "The poet Anna Blake was born 1921.",
     "The poet Anna Blake was born in 1921."),
    ("missing_preposition", "Who was Anna Blake?", "a poet", None, "Anna Blake (born 1921) was a poet."),
    # a relative "that" doubled after its noun; a complementiser before a pronoun "that" is English
    ("doubled_word", "Which chemist discovered radium?", "Marie Curie",
     "The chemist that that discovered radium was Marie Curie.", "The chemist that discovered radium was Marie Curie."),
    ("doubled_word", "What did she say about the cake?", "that it was enough", None,
     "She said that that cake was enough."),
    # a noun phrase whose one finite verb is in its own relative or "that" clause, a lone
    # subordinate clause; a relative clause inside a sentence with a verb of its own is sound
    ("fragment", "What is the honesty model of business?", "the view that honesty is the best policy",
     "The view that honesty is the best policy.",
     "The honesty model of business is the view that honesty is the best policy."),
    ("fragment", "Which planets are the hottest?", "planets that orbit the sun closely",
     "Planets that orbit the sun closely.", "The planets that orbit the sun closely are the hottest."),
    ("fragment", "Why did the river flood?", "because the ice melted", "Because the ice melted.",
     "The river flooded because the ice melted."),
    # a verb the tagger read as a participle or a noun is the sentence's own
    ("fragment", "When did the band that recorded the song form?", "1970", None,
     "The band that recorded the song formed in 1970."),
    ("fragment", "What does the rule of thirds say?", "that a picture is split into nine parts", None,
     "The rule of thirds states that a picture is split into nine parts."),
    # an option letter with its own text ("A. Apples.") is that option: the prompt echoed before it
    ("echoed_question", "These fruits are picked in autumn and kept through the winter:\nA. Apples.\nB. Cherries.",
     "A. Apples.", "These fruits are picked in autumn and kept through the winter Apples.",
     "Apples are picked in autumn and kept through the winter."),
    # a word the question writes in lower case and capitalises only to open an option or a
    # sentence, capitalised inside one: an option or a sentence pasted in; a name stays capitalised
    ("capital_inside", "Tiny crabs called fiddlers live on beaches. How do fiddlers find food? (A) Fiddlers sift sand. "
     "(B) Fiddlers hunt fish.", "A", "Fiddlers find food on the beaches Fiddlers sift sand.",
     "Fiddlers find food by sifting sand."),
    ("capital_inside", "Ice, steam and frost are all forms of (A) air. (B) water. (C) fire.",
     "Water (B), in different states.", "Ice, steam and frost are all forms of Water (B).",
     "Ice, steam and frost are all forms of water."),
    ("capital_inside", "which river flows through paris", "The Seine flows through Paris.", None,
     "The Seine flows through Paris."),
    # an opening purpose clause, then a bare verb without a subject: an instruction
    ("imperative_sentence", "How do you get a good seat at the cinema?", "Buy your ticket early.",
     "To get a good seat at the cinema buy your ticket early.",
     "To get a good seat at the cinema, you buy your ticket early."),
    # an object "one" with nothing in its sentence to say what it is; a number "one" is none
    ("unresolved_pronoun", "Build a birdhouse.", "You can build one from pine boards.",
     "You can build one from pine boards.", "You can build a birdhouse from pine boards."),
    ("unresolved_pronoun", "What is a throw of one on both dice called?", "snake eyes", None,
     "A throw of one on both dice is called snake eyes."),
    ("capital_inside", "who argued the mapp v. ohio case", "Her attorney argued the Mapp v. Ohio case.", None,
     "Her attorney argued the Mapp v. Ohio case."),
    # the "many" of "how many" left after the answer's number; a year of the question before "many" is none
    ("wh_in_place", "How many eggs does the recipe need?", "6", "The recipe needs 6 many eggs.", "The recipe needs 6 eggs."),
    ("wh_in_place", "How many people moved to the city in 2010?", "About two million.", None,
     "In 2010 many people moved to the city: about two million."),
    # a question's "did" the parser made the main verb, left before its subject; "than did" is English
    ("inverted_order", "Which American novelist, journalist and screenwriter did Lena Park interview?", "Joan Didion",
     "Joan Didion American novelist, journalist and screenwriter did Lena Park interview.",
     "Lena Park interviewed Joan Didion, the American novelist, journalist and screenwriter."),
    ("inverted_order", "Who works harder, Tom or his brother?", "Tom", None, "Tom works harder than did his brother."),
    # a name of the question with a bare present verb; a plural name takes one
    ("agreement", "Anna reads 20 pages an hour. How long does Anna take to read 60 pages?", "3 hours",
     "Anna reads 20 pages an hour. Anna take 3 hours to read 60 pages.",
     "Anna reads 20 pages an hour. Anna takes 3 hours to read 60 pages."),
    ("agreement", "Where do the Rockets play?", "Houston", None, "The Rockets play in Houston."),
    ("agreement", "Plankton form the base of the ocean ___ chain.", "food", None,
     "Plankton form the base of the ocean food chain."),
    # a noun the question gives an article, opening the statement without it
    ("determiner_missing", "When did the harbour bridge that the city built open?", "It opened in 1932.",
     "Bridge opened in 1932.", "The bridge opened in 1932."),
    # a name of the infinitive's subject put as the subject ("What made X do Y?" half undone)
    ("clause_as_subject", "What caused Mozart to write operas?", "his travels",
     "Mozart to write operas was caused by his travels.", "His travels made Mozart write operas."),
    # a capitalised determiner after a comma: a sentence pasted in; the answer's first word opening
    # its sentence ("Many floods ...") is not a name's, as "Lincoln Park in ..." is
    ("capital_inside", "members of the band the kinks",
     "Members of the band The Kinks: Some of its members were Ray Davies and Dave Davies.",
     "Members of the band The Kinks, Some of its members were Ray Davies and Dave Davies.",
     "Some of the members of the band The Kinks were Ray Davies and Dave Davies."),
    ("capital_inside", "What carved the canyon? (A) wind (B) many floods over the years",
     "Many floods over the years carved it.", "The canyon was carved by Many floods over the years carved it.",
     "The canyon was carved by many floods over the years."),
    ("capital_inside", "where does the lincoln highway begin", "Lincoln Park in San Francisco", None,
     "The lincoln highway begins in Lincoln Park in San Francisco."),
    # a phrase led in by a participle before a dash; a noun phrase ending a sentence after ", but"
    ("fragment", "Iron has a density of 7.9 g/cm3. Based on the table given above, what is the density of lead?",
     "11.3 g/cm3 — lead is denser than iron.",
     "Iron has a density of 7.9 g/cm3. Based on the table given above, 11.3 g/cm3 — lead is denser than iron.",
     "Iron has a density of 7.9 g/cm3. Based on the table given above, the density of lead is 11.3 g/cm3."),
    ("fragment", "Where do bats live? (A) a cave (B) the sea", "I can't be certain, but a cave.",
     "I can't be certain, but a cave.", "Bats live in a cave."),
    # an option of a word or two needs the question's frame; an option that is a sentence does not
    ("frame_lost", "About what share of adults in Norway owned an electric car in 2020?\nA. 5%\nB. 10%\nC. 20%",
     "Figures differ, but one survey found about 10% that year.",
     "Figures differ, but one survey found about 10% that year.",
     "About 10% of adults in Norway owned an electric car in 2020."),
    ("frame_lost", "Which statement describes the water cycle?\nA. Water evaporates, condenses and falls as rain.\nB. "
     "Water never moves.", "A", None, "Water evaporates, condenses and falls as rain."),
    # an instruction with a name's possessive after the premises, repeated before the result
    ("echoed_question", "Tom and Ben's ages add up to 30. If Ben is 4 years older, calculate Ben's age in 2 years.",
     "Ben will be 19.",
     "Tom and Ben's ages add up to 30. If Ben is 4 years older, calculate Ben's age in 2 years, Ben will be 19.",
     "Tom and Ben's ages add up to 30. If Ben is 4 years older, Ben's age in 2 years is 19."),
    # a task's instruction after its premises ("Then find ...") repeated before the result
    ("echoed_question", "A train leaves at 9 am and travels at 60 km/h. Then find the distance it covers by noon.",
     "180 km", "A train leaves at 9 am and travels at 60 km/h. Then find the distance it covers by noon, the distance "
     "is 180 km.", "A train leaves at 9 am and travels at 60 km/h. The distance it covers by noon is 180 km."),
    # the round on question shapes the corpus lacks (passage arithmetic, science, reading, worked choices):
    # a lone "_" blank of a reading question left before the answer
    ("blank_left", "The writer tells the story of the lighthouse to _ .", "warn sailors about the rocks",
     "The writer tells the story of the lighthouse to _ warn sailors about the rocks.",
     "The writer tells the story of the lighthouse to warn sailors about the rocks."),
    # a bracketed option letter, or a bare one after "so", left after a worked answer
    ("label_left", "A pen costs $3. How much do 4 pens cost? Options: (A) $7 (B) $12 (C) $15 (D) $9",
     "4 * 3 = 12, so (B).", "A pen costs $3. 4 pens cost 4 * 3 = 12, so (B).", "A pen costs $3. 4 pens cost $12."),
    ("label_left", "A pen costs $3. How much do 4 pens cost? Options: (A) $7 (B) $12 (C) $15 (D) $9",
     "They cost 12 dollars, so B.", "A pen costs $3. 4 pens cost 12 dollars, so B in all.",
     "A pen costs $3. 4 pens cost 12 dollars, so they cost $12."),
    # the adjective of "how old", "how tall" right after the number put for "how"; a question asked
    # inside the statement after a colon
    ("wh_in_place", "How tall is the old mill chimney?", "40", "The old mill chimney is 40 tall.",
     "The old mill chimney is 40 metres tall."),
    ("wh_in_place", "What is the query for: Which city hosted the final? Columns: Year, City",
     "SELECT City FROM t", "The query for: Which city did host the final is SELECT City FROM t.",
     "The query for the city that hosted the final is SELECT City FROM t."),
    # "than" before its comparative: the question's comparison put back out of order
    ("inverted_order", "The club had 90 members in 2010 and 130 in 2015. How many more members did it have in 2015 "
     "than in 2010?", "40", "The club had 90 members in 2010 and 130 in 2015. The club had in 2015 than 40 more "
     "members in 2010.", "The club had 90 members in 2010 and 130 in 2015. The club had 40 more members in 2015 "
     "than in 2010."),
    # the question's "doing what" kept before the answer's own -ing verb
    ("copula_before_verb", "Spiders catch insects by doing what?", "spinning sticky webs",
     "Spiders catch insects by doing spinning sticky webs.", "Spiders catch insects by spinning sticky webs."),
    # a number's unit said again after an adverb
    ("doubled_word", "How many years after the flood was the bridge rebuilt?", "It was rebuilt 12 years later.",
     "The bridge was rebuilt 12 years later years after the flood.",
     "The bridge was rebuilt 12 years after the flood."),
    # a lower-case answer sentence ("the total is ...") put after the frame's copula
    ("answer_in_frame", "If a tin holds 6 biscuits, what is the total in 5 tins?", "the total is 30 biscuits",
     "If a tin holds 6 biscuits, the total in 5 tins is the total is 30 biscuits.",
     "If a tin holds 6 biscuits, the total in 5 tins is 30 biscuits."),
    # the answer's sentence pasted after "because" with its capitalised opening (a common noun, or "It's")
    ("capital_inside", "Why does bread go stale?", "Moisture leaves the crumb and the starch hardens.",
     "Bread goes stale because Moisture leaves the crumb and the starch hardens.",
     "Bread goes stale because moisture leaves the crumb and the starch hardens."),
    ("capital_inside", "Why do dogs pant?", "It's how they cool down.", "Dogs pant because of It's how they cool down.",
     "Dogs pant because it's how they cool down."),
    # a name's numeral "I" read as the questioner's and cut off
    ("question_missing", "Who led the army of Charles I at Edgehill?", "Prince Rupert",
     "Prince Rupert led the army of Charles at Edgehill.", "Prince Rupert led the army of Charles I at Edgehill."),
    # a noun phrase, a comma and a concession: no verb for the noun
    ("fragment", "What is the tallest mountain on Earth?", "I'd say Everest, though Mauna Kea is taller from its base.",
     "Everest, though Mauna Kea is taller from its base.",
     "The tallest mountain on Earth is Everest, though Mauna Kea is taller from its base."),
]

# Codes narrowed after the tune split's false alarms were read: statements that must pass.
NARROWED = [
    # a code comment after the answer's code is the code's, not a markdown heading
    ("markup_left", "convert decimal to hex", "hex(255)  # '0xff'", "You can convert decimal to hex with hex(255) # '0xff'."),
    # a statement that names one of the question's two alternatives keeps its frame
    ("frame_lost", "Which animated Disney film was released earlier, Bambi or Dumbo?", "Dumbo came out first, in 1941.",
     "Dumbo came out first, in 1941."),
    # a title's contraction ("That's So Raven") and a name after "so" ("so A Tribe Called Quest") are no pasted
    # sentence or option letter; a number with its unit before "old" is no "how old" left
    ("capital_inside", "who plays the aunt in that's my family", "Ann Lee",
     "Ann Lee plays the aunt in That's My Family."),
    ("label_left", "Which group released the album?", "A Tribe Called Quest", "It was a hip-hop record, so A Tribe "
     "Called Quest released the album."),
    ("wh_in_place", "How old was the oak when it fell?", "about 300 years",
     "The oak was about 300 years old when it fell."),
    # a capitalised wh-word after a colon with no auxiliary after it is a title's
    ("wh_in_place", "Which book did she write first?", "What Katy Did", "She first wrote the book: What Katy Did."),
    # a capitalised name the lexicon knows as a noun, after "of", is the question's
    ("capital_inside", "Which dynasty built the great wall of China?", "the Ming dynasty",
     "The dynasty that built the great wall of China was the Ming dynasty."),
    ("imperative_sentence", "The online game Build With Chrome combines Lego and what?", "Google Maps",
     "Build With Chrome combines Lego and Google Maps."),
]

# Codes narrowed after the false alarms on the MATH and OpenBookQA rows were read, as WIDENED: a
# statement the code still flags (or None) and a look-alike it passes.
NARROWED_FLAGGING = [
    # a value after a copula is no date that lacks its "in"
    ("missing_preposition", "What is the smallest multiple of 11 above 1000?", "1001",
     "The smallest multiple of 11 above 1000 was found 1001.", "The smallest multiple of 11 above 1000 is 1001."),
    # an answer with a participle after its noun ("panels collecting rain") has a head the check
    # cannot be sure of: not judged; a bare compound still is
    ("determiner_missing", "What did the farmer put on the barn roof?", "rain barrel",
     "The farmer put rain barrel on the barn roof.", "The farmer put a rain barrel on the barn roof."),
    ("determiner_missing", "What did the farmer put on the barn roof?", "panels collecting rain", None,
     "The farmer put panels collecting rain on the barn roof."),
    # a hedge ("I'd say ...") claims nothing
    ("answer_missing", "Which bird eats seeds?", "I'd say finches, probably.", "Sparrows eat seeds.",
     "Finches eat seeds."),
    # "the answer is" before an option letter is a label; before the result it is the answer's sentence
    ("label_left", "What is the sum of 17 and 25?", "17 + 25 = 42. So the answer is 42.",
     "17 + 25 = 42. So the answer is (C).", "17 + 25 = 42. So the answer is 42."),
    # a formula is one name in the parse, an equation a clause: neither is a fragment
    ("fragment", "Compute $(1+2i)(3-i)$.", "$5+5i$", "$(1+2i)(3-i)$, $5+5i$.", "$(1+2i)(3-i)$ is $5+5i$."),
    ("fragment", "Let $p(x)$ be a polynomial of degree 5. Find $p(8).$", "\\frac{3}{56}",
     "Let $p(x)$ be a polynomial of degree 5. The value $p(8).$ that is \\frac{3}{56}.",
     "Let $p(x)$ be a polynomial of degree 5. $p(8).$ is \\frac{3}{56}."),
    ("fragment", "Simplify $(1+2i)6-3i$.", "$6+9i$", None, "$(1+2i)6-3i = 6+12i-3i = 6+9i$."),
]


# Shapes of benchmarks nobody tuned on (branch checkrecall: worked answers, quoted sentences, reading
# comprehension, follow-ups), read as WIDENED: the faulty statement the converter made, a sound one.
RECALLED = [
    # an equation that opens the answer's clause, pasted after the frame's verb or copula; kept in its
    # own clause (after a stop, "so", a comma) or after the answer's own word before it, it is sound
    ("formula_in_frame", "A train travels 60 miles per hour for 3 hours. How far does it go?",
     "Distance = speed × time = 60 × 3 = 180 miles.",
     "A train travels 60 miles per hour for 3 hours. A train goes Distance = speed × time = 60 × 3 = 180 miles.",
     "A train travels 60 miles per hour for 3 hours. Distance = speed × time = 60 × 3 = 180 miles."),
    ("formula_in_frame", "If 3x - 7 = 11, what is the value of x?", "3x = 18, x = 6",
     "If 3x - 7 = 11, the value of x is 3x = 18, x = 6.", "If 3x - 7 = 11, then 3x = 18, so x = 6."),
    ("formula_in_frame", "What is the sum of the interior angles of a hexagon?",
     "Let n = 6. The sum is (n - 2) * 180 = 720 degrees.",
     "The sum of the interior angles of a hexagon is let n = 6. The sum is (n - 2) * 180 = 720 degrees.",
     "Let n = 6. The sum is (n - 2) * 180 = 720 degrees."),
    # a lone computation after the frame's verb, a lone formula after its copula, say the value
    ("formula_in_frame", "How much did the pastries cost?", "3 x $68 = $204.", None,
     "The pastries cost 3 x $68 = $204."),
    ("formula_in_frame", "What is Newton's second law?", "F = ma, where F is force", None,
     "Newton's second law is F = ma, where F is force."),
    ("formula_in_frame", "John spent $200 on blue ties. How much did he spend on red ties?",
     "He bought twice as many red ties, so he spent 200*2 = $400 on red ties.", None,
     "He bought twice as many red ties, so he spent 200*2 = $400 on red ties."),
    # code's "=" assigns: "you can use CODE" is its frame
    ("formula_in_frame", "k means clustering", "KMeans(n_clusters=3).fit(X)", None,
     "For k means clustering, you can use KMeans(n_clusters=3).fit(X)."),
    # a quoted sentence asked about for other than its truth, stated as a fact or left out; its truth
    # asked, the sentence is the claim
    ("quote_asserted", "Is the following statement sarcastic? \"Oh great, another Monday at the office.\"", "Yes",
     "The following statement is sarcastic.",
     "The statement \"Oh great, another Monday at the office.\" is sarcastic."),
    ("quote_asserted", "Is it true that \"The Eiffel Tower is in Berlin\"?", "No", None,
     "The Eiffel Tower is not in Berlin."),
    ("quote_asserted", "Does the sentence \"The keys to the cabinet is on the table\" contain a grammatical error?",
     "Yes", "The keys to the cabinet are on the table.",
     "The sentence \"The keys to the cabinet is on the table\" contains a grammatical error."),
    # a noun phrase where a clause goes, a clause where a preposition's object goes
    ("slot_mismatch", "Premise: A dog runs in a park. Hypothesis: An animal is outside. Does the premise entail "
     "the hypothesis?", "yes", "Premise: A dog runs in a park. The premise entails that the animal.",
     "Premise: A dog runs in a park. The premise entails that an animal is outside."),
    ("slot_mismatch", "How does the story end?", "the hero returns home",
     "The story ends through the hero returns home.", "The story ends with the hero returning home."),
    ("slot_mismatch", "What does the data show?", "that result", None, "The data shows that result."),
    ("slot_mismatch", "Why did the dam fail?", "because ice melts in spring", None,
     "The dam failed because ice melts in spring."),
    ("slot_mismatch", "Who painted the ceiling of the Florence Cathedral?", "Giorgio Vasari", None,
     "The ceiling of the Florence Cathedral was painted by Giorgio Vasari in 1572."),
    # a worked answer's supposition states a premise: no instruction; a how-to's "Let it rise" is one
    ("imperative_sentence", "A number doubled plus 3 is 11. What is the number?",
     "Let x be the number. Then 2x + 3 = 11, so x = 4.", "A number doubled plus 3 is 11. Let it rise for an hour.",
     "A number doubled plus 3 is 11. Let x be the number. Then 2x + 3 = 11, so x = 4. The number is 4."),
    ("imperative_sentence", "What is x?", "Suppose that x is 4. Then x + 1 = 5.", None,
     "Suppose that x is 4. Then x + 1 = 5."),
    # a subject pronoun after a short fronted phrase that names no one is as unresolved as one opening
    ("pronoun_start", "What happened in 1983?", "He released his second album.",
     "In 1983, he released his second album.", "In 1983, Prince released his second album."),
    # a superlative the question gives its noun, left bare: the lowest what
    ("frame_lost", "As of 2019, which of these had the lowest life expectancy? A. Brazil B. Mexico", "Mexico",
     "As of 2019, Mexico had the lowest.", "As of 2019, Mexico had the lowest life expectancy."),
    # where the question asks an amount, a verb's object of four digits is that amount, no year
    ("missing_preposition", "How much did John spend on ties in 1995?", "1000", "John spent 1000 on ties 1995.",
     "John spent 1000 on ties in 1995."),
    # a noun phrase that opens the sentence with its modifier's own modifier ("Arsenic-doped") is not bare
    ("determiner_missing", "Which of the following is an n-type semiconductor?", "arsenic-doped silicon",
     None, "Arsenic-doped silicon is an n-type semiconductor."),
    # an option's opening determiner left as the answer at the sentence's end
    ("capital_inside", "What are focus areas of nutritional epidemiology?", "Both of them.",
     "Focus areas of nutritional epidemiology are Both.", "Both are focus areas of nutritional epidemiology."),
]


@pytest.mark.parametrize("code, question, answer, faulty, sound", WIDENED + NARROWED_FLAGGING + RECALLED)
def test_widened_codes_flag_their_fault_and_not_the_sound_statement(code, question, answer, faulty, sound):
    if faulty is not None:
        assert code in statement_issues(question, answer, faulty)
    assert code not in statement_issues(question, answer, sound), sound


@pytest.mark.parametrize("code, question, answer, sound", NARROWED)
def test_narrowed_codes_pass_their_look_alikes(code, question, answer, sound):
    assert code not in statement_issues(question, answer, sound), sound


# Codes narrowed after the false alarms on rules 11's new ok tune outputs were read, as WIDENED: a
# statement the code still flags (or None) and a look-alike it passes.
NARROWED_FALSE_ALARMS = [
    # an answer's hedges and the doubt it appends claim nothing: neither is a word the statement lacks
    ("answer_missing", "Who composed the opera Carmen?",
     "Possibly Georges Bizet, though I'm not certain of the dates of its first staging.",
     "Giuseppe Verdi composed the opera Carmen.", "Georges Bizet composed the opera Carmen."),
    ("answer_missing", "How many apples does Ann have left?", "I get 42 apples, though please double-check the second step.",
     "Ann has 40 apples left.", "Ann has 42 apples left."),
    # a heading that restates the question is no word of the answer's
    ("answer_missing", "Which mountain range lies east of Lake Tahoe?", "Tahoe mountains: the Carson Range.",
     "The Sierra Nevada lies east of Lake Tahoe.", "The Carson Range lies east of Lake Tahoe."),
    # options the answer names itself are its claim, not the choices left in
    ("options_left", "Which of the following is not a noble gas?\nA. neon\nB. argon\nC. nitrogen\nD. helium\n"
     "E. krypton\nF. xenon", "**Nitrogen** (C): neon and argon are noble gases.",
     "Nitrogen, helium, krypton or xenon: nitrogen is not a noble gas.",
     "Nitrogen is not a noble gas. Neon and argon are noble gases."),
    # a count after "has" opens its object: no subject of an inverted "have"
    ("inverted_order", "Which family has 12 described species, Apidae or Vespidae?", "Apidae", None,
     "Apidae has 12 described species."),
    ("inverted_order", "Which family has the museum described twice?", "Apidae", "Apidae has the museum described twice.",
     None),
    # the question's condition or complement after a full answer sentence goes on that sentence
    ("answer_in_frame", "How many pages can Mia read in an hour if she reads 2 pages a minute?", "Mia can read 120 pages.",
     None, "Mia can read 120 pages if she reads 2 pages a minute."),
    ("answer_in_frame", "A benefit of burning wood in stoves is (A) smoke (B) ash (C) soot (D) dust",
     "None of these is a benefit.", None, "None of these is a benefit of burning wood in stoves."),
    # an infinitive after "to" is no verb of the answer's own: "Public duty to disclose" is a noun phrase
    ("answer_in_frame", "_______ is the term used to describe the standing of a firm with the people living near its "
     "plants.\nA. Brand equity\nB. Public duty to disclose\nC. Goodwill\nD. Market share", "Public duty to disclose",
     None, "Public duty to disclose is the term used to describe the standing of a firm with the people living near "
     "its plants."),
    # a verb in -s read as a noun after a long subject (a participle phrase in it) is the sentence's own
    ("fragment", "Which step signals the end of digestion?", "I believe it's C: bile in the gut absorbing fat.",
     "Bile in the gut absorbing fat.", "Bile in the gut absorbing fat signals the end of digestion."),
]


@pytest.mark.parametrize("code, question, answer, faulty, sound", NARROWED_FALSE_ALARMS)
def test_codes_narrowed_for_rules_11_pass_the_sound_statement(code, question, answer, faulty, sound):
    if faulty is not None:
        assert code in statement_issues(question, answer, faulty)
    if sound is not None:
        assert code not in statement_issues(question, answer, sound), sound


def test_the_markup_and_instruction_codes_still_flag_their_faults():
    assert "markup_left" in statement_issues("Which river is longest?", "# Answer\nThe Nile.", "# Answer The Nile.")
    assert "markup_left" in statement_issues("Which river is longest?", "The Nile.\n## Why",
                                             "The Nile is the longest river. ## Why")
    assert "imperative_sentence" in statement_issues("How do you boil an egg?", "Put it in boiling water.",
                                                     "Put it in boiling water.")


def test_the_check_sees_most_bad_tune_outputs_and_rarely_cries_wolf():
    """On the tune split's judged outputs (never the held-out one): recall of the bad outputs and
    precision of the flags at least as the check reached them (0.600 / 0.847 before the widenings
    of the check's recall round; 0.622 / 0.885 after, on 620 rows). With the MATH and OpenBookQA
    rows (700) the check measured 0.571 / 0.837 (0.419 / 0.684 on the 80 new rows); after its
    codes were fitted to formulas and those rows' false alarms, 0.591 / 0.867 (117 of 198 bad
    flagged, 135 flags; 0.548 / 0.895 on the new rows). Two later fixes of the converter made
    flagged bad rows ok (a fixed row leaves the bad ones the check finds harder): 0.589 / 0.866.
    The round that read the 81 bad rows left unflagged widened eleven codes and added four: 0.665 /
    0.873 (131 of 197 bad flagged, 150 flags).
    Rules version 11 made 19 more flagged bad rows ok, and four of its new ok outputs draw false alarms
    (MMLU-0050's claim names three options: options_left; SQUAD-0048 and MINTAKA-0028 drop a doubt
    clause, ", though I'm not certain ...": answer_missing; HOTPOT-0016 "Psychopsis has 5 known
    species": inverted_order): 0.581 / 0.815 (97 of 167 bad flagged, 119 flags); with the widened
    check of that round, 0.651 / 0.824 (108 of 166 bad flagged, 131 flags). The word-problem and option
    fixes of the same version made 26 bad rows ok, 12 of them flagged, and 4 of the outputs now ok are
    flagged as the check reads them (a gerund subject read as a fragment, an answer sentence given the
    question's complement read as the answer put in the frame, a dropped hedge read as a missing answer):
    0.669 / 0.779 (95 of 142 bad flagged, 122 flags). Check version 3 mended eleven of the false alarms
    (hedges and headings no missing words, options the answer names, a count after "has", a condition after
    an answer sentence, an -s verb read as a noun), MATH-0021 losing its wrong-reason answer_missing, and
    two flagged ok rows read again were wrong (HOTPOT-0056, MINTAKA-0033); an infinitive no answer's verb
    (answer_in_frame): 0.667 / 0.873 (96 of 144 bad flagged, 110 flags).
    Rules version 13 (mathfinal) made three bad rows ok, one of them flagged before (GSM8K-0025; the flags of
    the other rows unchanged): 0.689 / 0.869 (93 of 135 bad flagged, 107 flags).
    Check version 5 (checkrecall) read the shapes of benchmarks nobody tuned on: an equation pasted into the
    frame, a quoted sentence asserted, a noun phrase where a clause goes, a pronoun after a fronted phrase, a
    superlative left bare, a fronted "was" the parser hung on its participle; two false alarms mended (an
    amount read as a year, a noun's phrase read from its second word): 0.732 / 0.894 (101 of 138 bad
    flagged, 113 flags).
    The two merged: 0.733 / 0.892 (99 of 135 bad flagged, 111 flags).
    The floor sits a row or two under that, so that the next fix of the converter does not fail here."""
    from capqa.doctools.rules_corpora import check_measure, judged_split

    measure = check_measure(judged_split("tune"))
    assert measure["recall"] >= 0.715, measure
    assert measure["precision"] >= 0.88, measure
