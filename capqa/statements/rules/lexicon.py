"""The converter's word lists and the low-level patterns every shape shares."""

import re

# --- Closed word classes ---------------------------------------------------------------------
DETERMINERS = frozenset("a an the this that these those its their his her our my your some any "
                         "each every all both no one".split())
# Quantifiers that float after a subject, before its verb ("X and Y | both | include ...", "they all went").
FLOATING_QUANTIFIERS = frozenset(("both", "all", "each"))
PRONOUNS = frozenset("it they he she we you i there this these those".split())
ARTICLES = frozenset(("a", "an", "the"))
DEMONSTRATIVES = frozenset(("this", "that", "these", "those"))
OBJECT_PRONOUNS = frozenset("it them him her".split())
RELATIVE_PRONOUNS = frozenset("that who whom which whose".split())
PREPOSITIONS = frozenset("of to as for with by from in on at into onto about like than over under "
                          "between through during after before without within across".split())
AUXILIARIES = frozenset("is are was were am be been being do does did can could will would shall "
                         "should may might must has have had".split())
# Words of a question's polarity ("Did they win any awards?", "Has it ever snowed?") that an
# affirmative statement cannot keep ("They won any awards"), and the words that license them there:
# a negation, a condition, a comparison, a restriction ("only"), a question.
POLARITY_WORDS = frozenset("any anything anyone anybody ever".split())
POLARITY_LICENSORS = frozenset("not n't no never nothing nobody none neither nor without if whether unless than "
                               "before only few little hardly barely rarely every each all too doubt deny "
                               "ask asked wonder".split())
NEGATIONS = frozenset("not no cannot can't don't doesn't didn't isn't aren't wasn't weren't won't".split())
MODALS = frozenset("can could will would shall should may might must".split())
COPULAS = frozenset("is are was were".split())
# A plural copula and its singular (the check: "Elon Musk are" where the question said "is").
PLURAL_COPULAS = {"are": "is", "were": "was"}
# Words that say a thing is known, and those that deny it ("because nobody knows for sure": no reason).
KNOWING_WORDS = frozenset("know knows known sure certain clear understood".split())
NOT_KNOWING_WORDS = frozenset("nobody no noone not n't never".split())
# Verbs that open a worked answer's supposition, a premise of the working ("Let x be the number", "Suppose
# that x is 4"): no instruction to the reader.
SUPPOSING_VERBS = frozenset("let suppose assume".split())
# Linking verbs (lemmas) whose "how" answer is an adjective complement: "felt | happy", "looked | tired".
LINKING_VERBS = frozenset("feel look seem sound taste smell appear become get grow remain stay turn".split())
# Prepositions that open a time phrase ("before the kitchen" in bAbI's "Where was the football before the kitchen?").
TIME_PREPOSITIONS = frozenset("before after during since until".split())
# Adverbs of degree before an adjective ("very lonely", "quite tired") that do not end in -ly.
DEGREE_ADVERBS = frozenset("very quite really so rather pretty fairly too somewhat".split())
# Words opening a condition clause ("if your target is 2000", "when making a countertop").
CONDITION_WORDS = frozenset("if when whenever unless once while assuming given".split())
# A comparison's words: the tags of "taller", "faster", and the words that compare a quantity.
COMPARATIVE_TAGS = frozenset(("JJR", "RBR"))
# Penn tags of a finite verb or a modal, and of a wh-word.
FINITE_TAGS = frozenset(("VBD", "VBZ", "VBP", "MD"))
WH_TAGS = frozenset(("WDT", "WP", "WP$", "WRB"))
# The parser's labels of a verb's subject: a noun phrase, active or passive (the nominal ones), or any kind.
NOMINAL_SUBJECT_DEPS = frozenset(("nsubj", "nsubjpass"))
SUBJECT_DEPS = NOMINAL_SUBJECT_DEPS | frozenset(("expl", "csubj", "csubjpass"))
COMPARATIVE_WORDS = frozenset("more less fewer further farther".split())
# Adjectives of a dimension, which take a measure before them ("330 m tall", "35 years old");
# others do not ("5,500 degrees hot", "80 kg heavy" are no English).
MEASURE_ADJECTIVES = frozenset("old tall long wide deep high thick broad".split())
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10}
# Verbs whose subject "it" stands for the infinitive after them, not for a thing ("How long does it
# take him to get back?", "How much would it cost to paint it?").
EXTRAPOSING_VERBS = frozenset("take takes took taken cost costs".split())
# Nouns of a question that asks which statement holds ("Which statement best describes X?", "Which
# is a fact about X?"): an option that is a sentence is the claim itself, kept as it is.
STATEMENT_NOUNS = frozenset("statement fact claim conclusion explanation description sentence inference observation "
                            "prediction hypothesis idea belief summary".split())
# The words an option's letter may be named with, in the prompt and in the answer ("Sentence A: ...",
# "Option B"), as a pattern's alternatives.
OPTION_LABEL_PATTERN = "sentence|statement|option|choice"
# Nouns a prompt calls the sentence it asks a verdict on ("Is this claim supported?", "Is the following
# statement correct?"), as a pattern's alternatives.
CLAIM_NOUNS = frozenset("claim statement sentence hypothesis argument assertion conclusion".split())
CLAIM_NOUNS_PATTERN = "|".join(sorted(CLAIM_NOUNS))
# An answer's verdict on a claim: it holds, it does not, or it is contradicted ("entailment",
# "refutes", "fiction"; an inference's "contradiction" is more than its "not entailed").
# The labels of fact-checking and inference tasks among them are no content an answer gives (statement check).
_POSITIVE_LABELS = frozenset("supported supports support entailment entailed entails".split())
_NEGATIVE_LABELS = frozenset("refuted refutes refute non-entailment".split())
CONTRADICTING_VERDICTS = frozenset("contradiction contradicted contradicts contradict".split())
VERDICT_LABELS = _POSITIVE_LABELS | _NEGATIVE_LABELS | CONTRADICTING_VERDICTS | {"neutral"}
POSITIVE_VERDICTS = _POSITIVE_LABELS | frozenset("yes true correct right accurate fact valid plausible".split())
NEGATIVE_VERDICTS = _NEGATIVE_LABELS | frozenset("no false incorrect wrong inaccurate fiction myth invalid "
                                                 "implausible".split() + ["not entailment", "not entailed", "not supported"])
# Verbs of a prompt that asks for a verdict on a sentence ("Decide whether the following statement is true:"):
# the verdict is the statement's, no predicate of the sentence.
JUDGING_VERBS = frozenset("decide determine judge tell say classify evaluate assess check verify answer state "
                          "indicate".split())
# A question's predicate of truth: "Which of these is true / correct?" asks for a statement.
TRUTH_WORDS = frozenset("true false correct incorrect accurate inaccurate".split())
# A verdict's predicate that says the judged sentence holds: "Is the following statement true / a fact?"
# judges what the sentence says. Every other predicate ("plausible", "grammatical", "sarcastic", "valid",
# "toxic", "paraphrases", "positive") is a property of the text, said of the text quoted.
TRUTH_PREDICATES = TRUTH_WORDS | frozenset("factual supported unsupported refuted right wrong".split()) | {
    "a fact", "factually accurate", "factually correct", "the case"}
# Adverbs that make a truth word a property of the text: "grammatically correct", "morally wrong".
PROPERTY_ADVERBS = frozenset("grammatically morally ethically logically linguistically semantically syntactically "
                             "deductively inductively socially stylistically pragmatically formally".split())
# Nouns a prompt calls the text it asks a verdict on, besides a claim's ("Is this tweet sarcastic?",
# "Is the following ending plausible?", "Are these two questions duplicates?").
JUDGED_TEXT_NOUNS = CLAIM_NOUNS | frozenset("comment tweet post review text passage message reply response ending "
                                            "continuation completion solution action behavior behaviour reasoning "
                                            "inference question utterance headline phrase scenario explanation "
                                            "premise".split())
# The opposite of a property that no prefix negates: "Is the review positive?" + "negative".
PROPERTY_ANTONYMS = {"positive": "negative", "negative": "positive", "sarcastic": "sincere", "sincere": "sarcastic",
                     "literal": "figurative", "figurative": "literal", "formal": "informal", "informal": "formal"}
# Verbs of a question that asks what event comes ("Which would most likely happen next?").
EVENT_VERBS = frozenset("happen occur".split())
# Words that make a count of many out of "one" or "a" before them ("one hundred", "a dozen").
MULTIPLIER_WORDS = frozenset("dozen score hundred thousand million billion trillion".split())
# Prepositions that never open a locative inversion: "Under the sea lives a crab" is sound, "From X wrote Y" is not.
NON_LOCATIVE_PREPOSITIONS = frozenset("from by of for with about to as like than through via".split())
# The words of a negative answer ("none", "not any", "neither", "never"), which a statement says by its negation.
NEGATIVE_ANSWER_WORDS = frozenset("none nothing nobody neither any never".split())
NEGATIVE_ANSWERS = frozenset("no false incorrect wrong never nope".split() + ["not really", "not at all"])
_POSITIVE_ANSWERS = frozenset("yes true correct right yeah yep absolutely indeed".split())
# A table's cells that only say a row has what the question asks ("| Saturn | yes |") or has not.
TABLE_YES = frozenset("yes y true x ✓ ✔ ✅ ✔️".split())
# A table's row that sums the rows above it: a worked table's answer.
TOTAL_WORDS = frozenset("total sum overall altogether grand total".split() + ["grand total", "in total"])
TABLE_NO = frozenset("no n false none - – — ✗ ✘ ❌ n/a".split())
# Nouns whose instances are unique parts of a whole or units of measure: "the heart", "the ohm".
DEFINITE_HEADS = frozenset("organ organelle part structure site boundary layer bone gland "
                            "powerhouse unit".split())
# Function words that a join may say twice ("because because", "and and", "is is"): said twice in a
# row, the second is a slip of the answer or of the frame (never "that that" or "had had", which English has).
# Prepositions are not among them: a lower-case query may put one before a title's own ("in in cold blood").
DOUBLED_JOIN_WORDS = frozenset("because and or but nor so the a an is are was were than then therefore thus hence "
                               "since".split())
# A result connective after "so" says it again: "so therefore", "so thus", "so hence".
RESULT_CONNECTIVES = frozenset("therefore thus hence consequently".split())
# Endings of the names of chemicals and substances ("dioxide", "chlorine", "sodium", "glucose"): uncounted
# in a science answer whatever plural the lexicon lists ("dioxides").
CHEMICAL_ENDINGS = ("ide", "ine", "ium", "gen", "ose", "ate", "ite", "ol", "ene", "ane")
# Nouns whose value is a word, not a thing: "The common name of the clavicle is collarbone" takes no article.
NAMING_NOUNS = frozenset("name names term word title nickname symbol abbreviation acronym spelling label".split())
# Pronouns that look like count nouns to the lexicon ("nothings") but take no article.
INDEFINITE_PRONOUNS = frozenset("nothing nobody noone none everything everyone everybody anything anyone anybody "
                                "something someone somebody".split())
# Count nouns that name one thing of its kind in everyday speech: "the moon causes tides", never "a moon".
UNIQUE_NOUNS = frozenset("moon sun earth sky world universe equator horizon atmosphere".split())
# Adjectives that take a complement and end a question's predicate: "proportional to".
PREDICATE_ADJECTIVES = frozenset("proportional equal similar related equivalent responsible "
                                  "composed subject due close opposite".split())
# Nominal predicates that end a copular question: "What is sound a type of?".
_DEGREE_ADVERBS = frozenset("best most least likely probably usually often also".split())
# Nouns that name a course of action, which an imperative answer states as an infinitive ("The best
# way to X is to VP", "Tips for X are to VP").
COURSE_NOUNS = frozenset("way method means trick tip advice secret key solution remedy cure fix approach strategy "
                         "technique step action".split())
PREDICATE_NOUNS = frozenset("type kind form part example unit measure sort member".split())
# Suffixes of nouns that are usually uncountable (abstract nouns, processes, substances): such a
# bare answer gets no article ("is photosynthesis", "is oxygen"), others do ("is a neuron").
MASS_SUFFIXES = ("tion", "sion", "sis", "ism", "ity", "ment", "ness", "ance", "ence", "ing", "gy",
                  "ics", "phyll", "gen", "in", "ose", "ide", "ium", "ure", "age", "ia", "ine", "ity",
                  "ogy", "ship", "dom", "hood", "ur", "um", "ol", "ene", "ane", "ate", "ite",
                  "ar", "ic", "ine", "ty", "al", "er", "sm", "ph", "ice", "ed", "acid", "tissue", "itis")
# Prefixes that a hyphen joins to a verb, which stays the word's verb: "co-founded", "re-elected".
VERB_PREFIXES = frozenset("co re pre over under out mis un de dis".split())
# Plurals that the inflection table gives as their own lemma: "All people that ... are ...".
PLURAL_LEMMAS = frozenset("people police cattle clergy livestock poultry".split())
# Nouns uncountable in their usual sense that no suffix gives away: substances, materials,
# weather, seasons, diseases ("Ice can be made into ...", "Limestone is formed from shells").
MASS_NOUNS = frozenset("ice water oil air steam smoke sand soil mud clay dirt dust salt sugar coal petroleum "
                        "gasoline limestone granite marble basalt sandstone shale slate quartz chalk "
                        "steel iron copper gold silver lead tin zinc aluminum aluminium brass bronze wood "
                        "glass plastic rubber paper cotton wool silk rain snow hail sleet fog frost wind "
                        "heat light sound electricity gravity lava magma soap milk blood sweat "
                        "summer winter autumn cancer malaria drift erosion weathering "
                        "scum grease grime mold mould rust lint hair fur wax glue paint foil tape toast bread rice "
                        "flour butter cheese meat food money furniture equipment software hardware data "
                        "information advice weight fat traffic homework music "
                        # formats and number systems, uncountable as a conversion's ends: "convert decimal to hex"
                        "decimal hex hexadecimal binary octal text html xml json csv pdf ascii unicode".split())
# The suffixes of abstract nouns, uncountable in a task's title ("improve performance"); the
# longer list above is for science answers and takes "file", "bed", "date" for substances.
ABSTRACT_SUFFIXES = ("tion", "sion", "sis", "ism", "ity", "ment", "ness", "ance", "ence", "ogy", "ics", "ship",
                     "dom", "hood")
# Adjectives that make a noun phrase one of a kind: "get the current date", "the default value".
# Participles that take the name asked for as their complement ("What was the bridge called?").
NAMING_PARTICIPLES = frozenset("called named known nicknamed dubbed titled termed labelled labeled considered "
                               "ranked rated".split())
DEFINITE_ADJECTIVES = frozenset("current same first last next previous main whole entire default".split())
COUNT_EXCEPTIONS = ("reaction", "cation", "anion", "mirror", "motor", "lens", "circuit", "cell",
                     "molecule")
VOWEL_SOUND = re.compile(r"^(?:[aeioAEIO]|[uU](?!ni|se|su|ra|ro|re|ti)|[hH](?:our|onest|onor|eir)|"
                          r"[FHLMNRSX](?:[A-Z0-9]|$))")
# Answers that describe by a noun and its complement are definite: "is the loss of electrons".
NOUN_OF = re.compile(r"^([a-z]+) of ")
# Subjects whose content is a proposition: "Ohm's law states that ...".
PROPOSITION_HEADS = frozenset("law principle rule theorem theory hypothesis postulate".split())

# --- Precompiled patterns --------------------------------------------------------------------
# Every pattern runs in time linear in its input: no nested quantifiers, and a pattern that could
# start anywhere inside a run of the characters it repeats either is anchored with ^ or looks
# behind (tests/statements/test_rules_hostile.py times each on megabyte inputs).
_TRAILING_CHARS = ".?!:;,"


def strip_trailing(text: str) -> str:
    """``text`` without trailing whitespace and sentence punctuation (". ?!:;,"), in linear time
    (a regular expression anchored at the end retries from every position of a long run, and
    repeated ``rstrip`` copies the text each time)."""
    end = len(text)
    while end and (text[end - 1] in _TRAILING_CHARS or text[end - 1].isspace()) and not is_factorial(text, end - 1):
        end -= 1
    return text[:end] if end < len(text) else text


def is_factorial(text: str, position: int) -> bool:
    """Whether the "!" at ``position`` is a factorial's ("n!", "5!", "(p-1)!"), part of the text:
    it follows a number, a lone letter or a closing bracket with no space between."""
    if text[position] != "!" or position == 0:
        return False
    before = text[position - 1]
    lone_letter = before.isalpha() and (position == 1 or not text[position - 2].isalnum())
    return before.isdigit() or before == ")" or lone_letter


# A blank is a run of three underscores or more ("is_____."), or two standing alone: two inside a
# word are code ("__init__", "x__y").
BLANK = re.compile(r"_{3,}|(?<![A-Za-z0-9_])__(?![A-Za-z0-9_])")
WHITESPACE = re.compile(r"\s+")
LIST_ANSWER = re.compile(r",| and | or |;")
# Imperatives whose object is a quantity or expression to work out ("Compute $99^2+99+1$.", "Evaluate
# $(1+2i)6-3i$.", "Simplify $\\sqrt{242}$."): the object is what the answer is.
COMPUTING_VERBS = ("calculate", "compute", "evaluate", "simplify")
YES_NO = re.compile(r"^(yes|no|true|false|correct|incorrect|wrong|right|never|not really|not at all|nope|yeah|"
                     r"yep|absolutely|indeed)\b[\s,.;:!—–-]*(.*)$",
                     re.IGNORECASE)
WH_START = re.compile(r"^(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
# How a question without a question mark still shows it is one ("what is sonar used for").
QUESTION_START = re.compile(r"^(?:(?:what|which|who|whom|whose|how)\b|(?:when|where|why) (?:is|are|was|were|do|"
                             r"does|did|can|could|will|would|should|has|have|had)\b|(?:is|are|was|were|do|"
                             r"does|did|can|could|will|would|shall|should|may|might|must|has|have|had) )",
                             re.IGNORECASE)
# "In which layer does weather occur?": a preposition before the wh-phrase.
AUX_START = re.compile(r"^(?:is|are|was|were|do|does|did|can|could|will|would|shall|should|may|might|"
                        r"must|has|have|had)\b", re.IGNORECASE)
CLAUSE_WORDS = frozenset("is are was were can cannot will must may might should has have had does do "
                          "did equals means becomes".split())
# Time nouns of a wh-phrase ("what year"): the answer is an adverbial of time with this preposition
# ("World War II ended in 1945").
TIME_NOUNS = {"year": "in", "century": "in", "decade": "in", "month": "in", "season": "in", "day": "on",
              "date": "on", "time": "at"}
# A day ("14 July 1789", "April 14, 1865", "Monday") takes "on"; a year, month or century "in".
_MONTHS = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
DAY = re.compile(rf"^(?:\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTHS}\b|{_MONTHS} \d{{1,2}}(?:st|nd|rd|th)?\b|"
                  r"(?:mon|tues|wednes|thurs|fri|satur|sun)day\b)", re.IGNORECASE)
TIME_POINT = re.compile(r"^(?:the )?(?:\d{3,4}s?|\d{4}\s*[–—/-]\s*\d{2,4}|\d+(?:st|nd|rd|th) century|(?:january|february|march|april|may|"
                         r"june|july|august|september|october|november|december|spring|summer|autumn|"
                         r"fall|winter)\b.*)(?:, .*)?$", re.IGNORECASE)  # "1975, though it's based on ..."
CAUSE_START = re.compile(r"^(?:because|since|as|due to|to|in order to|so that)\b", re.IGNORECASE)
MANNER_START = re.compile(r"^(?:by|through|via|with|using|in|from|on|at|of|after|like|as|without)\b",
                           re.IGNORECASE)
PLACE_START = re.compile(r"^(?:in|on|at|inside|within|near|under|above|below|between|along|across|"
                          r"from|into|onto|to|toward|towards|around|beside|behind|outside|off)\b", re.IGNORECASE)
# Labels that open a line of a worked answer's reasoning ("Step 2: ...", "Explanation: ..."): markup, as a bullet is.
WORKING_LABELS = frozenset("step explanation solution reasoning rationale working calculation".split())
# Nouns that only say a quantity is money ("How much money did she spend?"): an amount answering them
# is the money itself, "$66" or "66", never "$66 money".
MONEY_NOUNS = frozenset(("money", "cash"))
# A currency's noun and the signs that write it: "How many dollars ...?" + "$243" names the dollars already.
CURRENCY_SIGNS = {"dollar": ("$",), "euro": ("€",), "pound": ("£",), "rupee": ("₹", "Rs"), "yen": ("¥",)}
# What tells a person's gender where "his" / "her" must find its antecedent among several people: a title,
# and common given names of word problems and reading passages (a name not listed is of unknown gender).
MALE_TITLES = frozenset("mr mr. sir lord king prince".split())
FEMALE_TITLES = frozenset("mrs mrs. ms ms. miss lady queen princess madam".split())
MALE_NAMES = frozenset("john james robert michael william david richard joseph thomas charles daniel matthew mark "
                       "paul steven andrew joshua kevin brian george edward ronald timothy jason jeffrey ryan jacob "
                       "gary eric jonathan stephen larry justin scott brandon benjamin samuel frank gregory "
                       "raymond alexander patrick jack dennis jerry tyler aaron henry adam peter nathan zachary "
                       "kyle walter harold carl arthur roger joe tom tim sam ben dan bob bill mike jim tony "
                       "max luke leo oliver noah liam ethan mason lucas logan jake carlos juan luis ahmed ali "
                       "omar raj ravi hiroshi kenji ivan pierre hans".split())
FEMALE_NAMES = frozenset("mary patricia jennifer linda elizabeth barbara susan jessica sarah karen nancy lisa betty "
                         "margaret sandra ashley kimberly emily donna michelle dorothy carol amanda melissa deborah "
                         "stephanie rebecca sharon laura cynthia kathleen amy angela shirley anna brenda pamela "
                         "emma nicole helen samantha katherine christine debra rachel carolyn janet catherine maria "
                         "heather diane julie joyce victoria kelly christina lauren joan evelyn olivia judith "
                         "megan cheryl martha andrea hannah jacqueline ann gloria jean kathryn alice teresa sara "
                         "janice doris madison julia grace judy abigail marie denise beverly amber theresa marilyn "
                         "danielle diana brittany natalie sophia rose isabella alexis kayla charlotte ava mia "
                         "chloe zoe lily ella jane kate anne lucy sue fatima priya aisha yuki mei sofia".split())
