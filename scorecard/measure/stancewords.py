"""The vocabulary stance.py reads (docs/format.md, "Words in claims"): comparatives both ways, level words, words of
a value not yet placed, negations, hedges, the bar's names and the marks of history. Data, and the regular
expressions built from it; no logic.
"""

from __future__ import annotations

import re

from ..core.patterns import lazy

_W = r"(?<![\w-])"  # a word's start
AHEAD = (r"faster|quicker|better|ahead|leads?|led|leading|beats?|beaten|beating|outperform(?:s|ing|ed)?|"
         r"surpass(?:es|ing|ed)?|outpac(?:es|e|ing|ed)|outstrip(?:s|ping|ped)?|tops|topped|wins?|won|winning|"
         r"edges? (?:out|past)|edged (?:out|past)|overtook|outshone|beat out|"
         r"outran|outruns?|outscores?|dominates?|crushes|overtakes?|superior to|eclipses?|bests|betters|"
         r"outclass(?:es)?|outdoes|trounces?|speedier|snappier|improves? (?:on|upon)|an improvement|improvement|"
         r"wins? against|a win over|a lead over|the lead over|leads over|in the lead|outshines?|leapfrogs?|"
         r"clears|passes|leaves (?:\S+ ){1,4}in the dust|[\w-]+-beating|best-in-class|best in class|"
         r"number one|no\. ?1|#1|record-setting|record-breaking|a new record|speed-?ups?|a gain|gains|an edge|"
         r"the edge|an advantage|advantage|the new state of the art|sets the state of the art|is (?:the )?sota|"
         r"(?:is |are )?(?:the )?(?:fastest|quickest|speediest)(?! (?:run|runs|request|requests|sample|samples|"
         r"of our|of the runs)\b)|best-performing|fastest in class|is state[ -]of[ -]the[ -]art|"
         r"state[ -]of[ -]the[ -]art (?:latency|throughput|performance|speed|results?)|sota-level|"
         r"at (?:the )?sota level|(?:defines|raises|smashes|sets|resets|breaks) the bar|the bar to beat|"
         r"(?:meets|hits|reaches|matches) the bar|up to the bar|beyond the bar|past the bar|improves(?: on)?|"
         r"improved(?: on)?|an advance|a step (?:up|beyond)|an upgrade|outdistances?|preferable to|nicer than|"
         r"holds its own against|measures up to|keeps up with|wins on|leads on|superior \w+ (?:to|than)")
BEHIND = (r"slower|worse|behind|trail(?:s|ing|ed)?|lag(?:s|ging|ged)?(?: behind)?|falls? short(?: of)?|"
          r"fell short(?: of)?|short of|underperform(?:s|ing)?|los(?:es|ing|e) to|lost to|misses|missing|"
          r"off the pace of|inferior to|a regression|regress(?:es|ed)?|a deficit|a slowdown|slowdown|"
          r"catching up (?:to|with)|catches up (?:to|with)|yet to (?:match|reach|catch|beat)|not (?:yet )?at|"
          r"no match for|cannot keep up with|can't keep up with|falls? to|fell to")
LEVEL = (r"level with|level pegging(?: with)?|on par(?: with)?|at par(?: with)?|par with|at parity|parity with|"
         r"parity|matches|matching|indistinguishable from|similar to|close to the bar|roughly the bar|at the bar|"
         r"bar-level|bar-matching|are level|tie|"
         r"match(?:ed)?|equals|equall?ed|equal to|the same as|same \w+ as|comparable (?:to|with)|in line with|"
         r"neck and neck(?: with)?|tied with|ties|identical to|equivalent to|competitive with|keeps? pace with|"
         r"rivals|as (?:fast|quick|good|low|high|efficient) as")
HIGH = r"higher|more|greater|larger|bigger|above|over|exceeds?|exceeding|exceeded"
LOW = r"lower|less|fewer|smaller|below|beneath|under|within the bar|inside the bar|undercuts?|cuts"
UNPLACED = (r"not yet placed|cannot yet tell|can't yet tell|can not yet tell|too early to tell|inconclusive|"
            r"cannot (?:yet )?place(?: it)?|can't (?:yet )?place(?: it)?|"
            r"undecided|not yet known|unplaced|too few runs|too noisy to (?:tell|place)")
WORD_PATTERN = (rf"{_W}(?P<unplaced>{UNPLACED})\b|{_W}(?P<level>{LEVEL})\b|{_W}(?P<ahead>{AHEAD})(?!\w)|"
                rf"{_W}(?P<behind>{BEHIND})\b|{_W}(?P<high>{HIGH})\b|{_W}(?P<low>{LOW})\b")
# The gate (stance.may_say) reads every claim and note in lower case with this case-sensitive copy, about three
# times faster; the case-insensitive one keeps a sentence's positions (the hook's common case never needs it).
WORD_LOWER = lazy(WORD_PATTERN)
WORD = lazy(WORD_PATTERN, re.IGNORECASE)


# Verbs that take their object directly (beats X), and comparative adjectives that modify a noun when no 'than'
# follows ('faster hardware' compares nothing).
TRANSITIVE = lazy(r"leads?|led|beats?|beaten|beating|outperform|surpass|outpac|outstrip|tops|topped|overtake|"
                        r"overtook|trail|lags?|lagged|won|outshone|"
                        r"underperform|match|equals|equall?ed|ties|outran|outrun|outscore|dominate|crushes|misses|"
                        r"eclipse|bests|betters|outclass|outdoes|trounce|outshine|leapfrog|clears|passes|undercut|"
                        r"rivals|exceed", re.IGNORECASE)
ADJECTIVE = lazy(r"faster|quicker|better|slower|worse|speedier|snappier|higher|lower|more|less|fewer|"
                       r"greater|larger|bigger|smaller", re.IGNORECASE)
# Said as a verdict, a comparison that names nothing is against the bar ('we lead', 'best-in-class').
VERDICT_WORD = lazy(r"ahead|behind|leads?|led|leading|trail|trails|trailed|trailing|beats?|lags?|lagging|"
                          r"wins?|won|wins on|leads on|(?:is |are )?(?:the )?(?:fastest|quickest|speediest)|"
                          r"fastest in class|best-performing|"
                          r"lagged|in the lead|"
                          r"best-in-class|best in class|number one|no\. ?1|#1|record-setting|record-breaking|"
                          r"a new record|the new state of the art|sets the state of the art|is (?:the )?sota|"
                          r"[\w-]+-beating", re.IGNORECASE)
VERDICT_VERB = lazy(r"leads?|led|leading|beats?|beaten|beating|trails?|trailed|trailing|outperform|surpass|"
                          r"wins?|won|winning|"
                          r"los(?:es|e|ing)|lost|dominates?|crushes|underperform|best|number one|#1|record|"
                          r"[\w-]+-beating|is (?:the )?sota|the new state|sets the", re.IGNORECASE)
# A negation in the three words before a comparison ("no slower than", "cannot match", "has yet to beat");
# "not only faster" negates nothing.
NEG = lazy(r"(?:\b(?:no|not|never|nor|without|hardly|barely|cannot|unable to|fails? to|failed to|yet to)|"
                 r"n't)(?! (?:only|just|merely|simply|also)\b)(?: \w+)?(?: \w+)? ?$", re.IGNORECASE)
NOBODY = lazy(r"\b(?:nobody|no one|nothing|none|no other|no system|no rival)\b", re.IGNORECASE)
DEGREE = lazy(r"\b(?:nearly|almost|roughly|approximately|about|close to|just about|essentially|virtually|"
                    r"practically|near|more or less)\b", re.IGNORECASE)
CERTAIN = lazy(r"\b(?:arguably|effectively|appears? to|appeared to|seems? to|seemed to|likely|probably|"
                     r"apparently|possibly|presumably|may|might|could|would)\b", re.IGNORECASE)
POINT = lazy(r"(?<!not )(?<!merely )(?<!just )(?<!only )\bby the point(?: estimate)?\b", re.IGNORECASE)
NOISE = lazy(r"(?<!not )\bwithin (?:the )?(?:(?:run-to-run )?noise|(?:parity )?tolerance|±|\+/-)",
                   re.IGNORECASE)
# History: the comparison itself in a past tense (trailed, led, was behind; not 'has led'), and an earlier time it
# names (until v2.1, before the last release, in a year before this one).
EARLIER_TIME = lazy(r"\b(?:until|before|prior to|as of|in|by|through)\s+(?:v\d+(?:\.\d+)*\b|version \d|"
                          r"release \d|(?P<year>(?:19|20)\d\d)\b|(?:the )?(?:last|previous|prior|earlier|old|first) "
                          r"(?:release|version|build|year|quarter))|\b(?:previously|formerly|used to|at the time|"
                          r"back then)\b", re.IGNORECASE)
PAST_BEFORE = lazy(r"\b(?:was|were|had been|used to)(?: \w+)? ?$", re.IGNORECASE)
PAST_WORD = lazy(r"(?:trail|lagg|outperform|surpass|outpac|exceed|match|equall|fell|beat|overtook|"
                       r"underperform|regress)\w*ed$|^(?:led|beat|fell short|lost to|trailed|lagged)", re.IGNORECASE)
HAS_BEFORE = lazy(r"\b(?:has|have)(?: \w+)? ?$", re.IGNORECASE)
DIRECTION_PHRASE = lazy(r"\b(?:higher|lower|more|less)(?: is|=) better\b|\bbetter: ?(?:higher|lower)\b|"
                              r"\b(?:lower|higher)-is-better\b", re.IGNORECASE)
BARS = ("the bar", "bar", "bar's", "bars", "sota", "state of the art", "state-of-the-art", "the rival", "rival",
        "rival's", "rivals", "the leader", "the leaders", "the leading system", "the leading systems",
        "the competitor", "competitors", "the competition", "the baseline", "the record", "the published record",
        "the published number", "the target", "the incumbent", "the field", "the pack", "everyone", "everything",
        "anything", "anything else", "anyone", "any other", "all other", "all published", "every other",
        "the best", "the prior best", "the previous best", "the best published", "the reference", "the benchmark",
        "the curve", "the rest", "the others", "all others", "everybody")
PREPOSITION = lazy(r"\b(?:against|with|than|vs\.?|versus|to|of|on|over|behind|ahead|from|for|beside|by|at|"
                         r"under|past|in|into|onto|upon|around|near|across)\s+(?:the\s+|its\s+|our\s+|their\s+)?$",
                         re.IGNORECASE)
PRONOUN = lazy(r"^(?:it|them|that|theirs|its|this)\b", re.IGNORECASE)
PASSIVE = lazy(r"\b(?:is|are|was|were|been|being|be|gets?|got)\s+(?:\w+ )?$", re.IGNORECASE)
PARTICIPLE = lazy(r"beaten|outpaced|surpassed|outperformed|overtaken|bested|topped|outclassed|eclipsed|"
                        r"outrun|outstripped|trounced", re.IGNORECASE)
TIME_OBJECT = lazy(r"^(?:ever|before|previously|last time|it was|it used to|they were|yesterday|last year)\b",
                         re.IGNORECASE)
CLAUSE_END = lazy(r"[,;:—–]|\s-\s| and | but | while | whereas | though | although ")
RELATIVE = lazy(r"^\s*(?:which|that|who)\b", re.IGNORECASE)
SENTENCE = lazy(r"(?<=[.!?;])\s+(?=\S)|\s+¶\s+")
# A multiple or share of the bar, said as ours: '0.65× the bar's latency', '65% of the bar'.
RATIO_NOUNS = r"latency|time|delay|duration|speed|throughput|rate|performance|capacity|cost|memory"
RATIO = lazy(rf"(?<![\w.,])(\d+(?:\.\d+)?)\s?(×|x|X|%)\s+(?:of\s+)?(?:the\s+)?(?:(?P<noun>{RATIO_NOUNS})\s+of\s+"
                   r"(?:the\s+)?)?(?:bar|sota|rival|baseline)\b", re.IGNORECASE)
INVERSE_NOUNS = ("speed", "throughput", "rate", "performance", "capacity")  # against a time: the inverse ratio
# Letters that look Latin in other scripts, read as the Latin they show (a Cyrillic 'а' in 'fаster').
CONFUSABLE = str.maketrans("аеорсухіјѕԁɡԛԝАЕОРСУХІЈЅВНКМТ", "aeopcyxijsdgqwAEOPCYXIJSBHKMT")
# What may follow a comparative that ends its clause (oursys is faster.), and a gap just before a comparison (54% ...).
ENDS_CLAUSE = lazy(r"\s*(?:$|[.,;:!?()—–]|(?:by|on|at|in|for|with|across|over|against|vs|versus|overall|"
                   r"today|now|still|too|here|again)\b)", re.IGNORECASE)
NUMBER_BEFORE = lazy(r"\d(?:[.,]\d+)?\s?(?:%|×|x|[a-zµ/]{1,8})?\s?$", re.IGNORECASE)
