"""Words and sentence frames the test web writes its posts with (data only, no logic).

Three registers, one per kind of site: a personal essay blog (first person, reflective),
field notes (observations outdoors) and a news desk (reported speech, figures). Each
register has its own topics, sentence frames and headline frames, so the texts of two
posts differ in vocabulary as well as in the order of their words. Frames are
``str.format`` templates whose fields :mod:`feedsift.testweb.content` fills in.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "ADJECTIVES",
    "ADVERBS",
    "COMMENT_FRAMES",
    "CONNECTORS",
    "FIRST_NAMES",
    "FRAMES",
    "HEADLINES",
    "LAST_NAMES",
    "MONTHS",
    "OPINIONS",
    "SEASONS",
    "SUBHEADINGS",
    "TIMES",
    "TOPICS",
    "WEEKDAYS",
    "Topic",
]


class Topic:
    """One subject: its nouns (regular plurals), verbs (base, past, -ing), places and people."""

    __slots__ = ("name", "nouns", "people", "places", "verbs")

    def __init__(self, name: str, nouns: str, verbs: str, places: str, people: str) -> None:
        self.name = name
        self.nouns: tuple[str, ...] = tuple(nouns.split())
        self.verbs: tuple[tuple[str, str, str], ...] = tuple(
            (base, past, ing) for base, past, ing in (triple.split("/") for triple in verbs.split())
        )
        self.places: tuple[str, ...] = tuple(p.strip() for p in places.split(","))
        self.people: tuple[str, ...] = tuple(p.strip() for p in people.split(","))


#: Topics by register; a site draws each post's topic from its register's list.
TOPICS: Final[dict[str, tuple[Topic, ...]]] = {
    "essay": (
        Topic(
            "garden",
            "seedling trellis bean marrow greenhouse hedge spade barrow cutting raspberry "
            "slug allotment shed bed pumpkin watering-can cold-frame",
            "prune/pruned/pruning sow/sowed/sowing dig/dug/digging water/watered/watering "
            "mulch/mulched/mulching plant/planted/planting harvest/harvested/harvesting "
            "protect/protected/protecting",
            "the allotments on Dyer Lane, my grandmother's garden, the walled garden at Ashby, "
            "the community orchard, the back plot by the railway",
            "my neighbour Maureen, the allotment secretary, an old gardener from Kent, "
            "the man who sells seed potatoes, my father",
        ),
        Topic(
            "repair",
            "radio valve soldering-iron capacitor transformer toaster kettle bicycle chain "
            "hinge drawer clock spring screwdriver workbench lamp switch fuse",
            "mend/mended/mending solder/soldered/soldering replace/replaced/replacing "
            "test/tested/testing clean/cleaned/cleaning open/opened/opening "
            "adjust/adjusted/adjusting rescue/rescued/rescuing",
            "the repair café in the church hall, my cluttered workshop, the junk shop on Mill "
            "Street, a car-boot sale outside Harwich, the kitchen table",
            "a retired electrician, the volunteer at the repair café, my uncle Bernard, "
            "a woman who restores clocks, the shop owner",
        ),
        Topic(
            "books",
            "novel notebook chapter library paperback margin bookshelf reader poem letter "
            "diary translation bookshop sentence footnote index manuscript",
            "read/read/reading reread/reread/rereading borrow/borrowed/borrowing "
            "underline/underlined/underlining translate/translated/translating "
            "finish/finished/finishing quote/quoted/quoting",
            "the town library, a second-hand bookshop in Hay, the reading room upstairs, "
            "my desk by the window, the night train to Inverness",
            "a librarian I have known for years, my book group, the translator, "
            "a friend who only reads poetry, my sister",
        ),
        Topic(
            "kitchen",
            "loaf starter oven casserole marmalade jar pan recipe dumpling broth spoon "
            "apron pastry pickle cupboard teapot",
            "bake/baked/baking simmer/simmered/simmering knead/kneaded/kneading "
            "season/seasoned/seasoning stir/stirred/stirring preserve/preserved/preserving "
            "taste/tasted/tasting",
            "my tiny kitchen, the market hall on Saturday, my aunt's farmhouse, "
            "a café near the harbour, the school kitchen where I once worked",
            "the baker across the road, my grandmother, a cook from Lisbon, "
            "the woman at the cheese stall, my flatmate",
        ),
    ),
    "field": (
        Topic(
            "birds",
            "curlew lapwing heron warbler swift redshank plover wren kestrel egret "
            "nest feather binocular hide reedbed mudflat",
            "watch/watched/watching count/counted/counting ring/ringed/ringing "
            "record/recorded/recording flush/flushed/flushing follow/followed/following "
            "note/noted/noting",
            "the saltmarsh at Holme, Leighton Moss, the estuary below the sea wall, "
            "the reedbeds at Minsmere, a flooded gravel pit near Ely",
            "the warden, a volunteer ringer, two birders from Norwich, "
            "the reserve manager, a farmer who owns the grazing marsh",
        ),
        Topic(
            "weather",
            "cloud front squall gust barometer rain-gauge drift thermometer snowfield "
            "frost-hollow thunderstorm isobar breeze",
            "measure/measured/measuring forecast/forecast/forecasting shelter/sheltered/sheltering "
            "log/logged/logging track/tracked/tracking photograph/photographed/photographing "
            "compare/compared/comparing",
            "the ridge above Kinder, the weather station at Malin Head, the coast path near "
            "Dunwich, a bothy in the Cairngorms, the high moor",
            "the station keeper, a retired forecaster, the mountain rescue team, "
            "a shepherd, two students from the university",
        ),
        Topic(
            "shore",
            "rockpool limpet crab anemone tideline dune lugworm razor-shell jellyfish groyne "
            "sandbar seal",
            "survey/surveyed/surveying lift/lifted/lifting search/searched/searching "
            "map/mapped/mapping identify/identified/identifying sample/sampled/sampling "
            "sketch/sketched/sketching",
            "the rocky shore at Robin Hood's Bay, Blakeney Point, the north end of the beach, "
            "the harbour wall at Wells, a cove near St Abbs",
            "the marine biologist, a group of schoolchildren, the harbour master, "
            "a beachcomber with a bucket, the coastguard",
        ),
        Topic(
            "woodland",
            "oak beech bracket bluebell badger sett woodpecker coppice stump ditch owl clearing",
            "photograph/photographed/photographing measure/measured/measuring "
            "survey/surveyed/surveying coppice/coppiced/coppicing track/tracked/tracking "
            "listen/listened/listening mark/marked/marking",
            "Hatfield Forest, the ancient wood behind the village, Wistman's Wood, "
            "the Forest of Dean, a hazel coppice in Suffolk",
            "the forester, a mycologist, the woodland trust volunteer, "
            "an old charcoal burner, the estate manager",
        ),
    ),
    "news": (
        Topic(
            "harbour",
            "ferry berth dredger pontoon quay crane freighter lifeboat slipway warehouse "
            "mooring lighthouse tug terminal",
            "approve/approved/approving delay/delayed/delaying inspect/inspected/inspecting "
            "expand/expanded/expanding close/closed/closing reopen/reopened/reopening "
            "fund/funded/funding",
            "Port Evering, the eastern quay, the old fish market, Saltmarsh Road, "
            "the marina at Kessock",
            "the harbour authority, the port's chief executive, local fishermen, "
            "the coastguard, the dockworkers' union",
        ),
        Topic(
            "business",
            "factory budget contract supplier retailer warehouse loan pension shareholder "
            "startup bakery brewery dividend invoice tariff",
            "report/reported/reporting cut/cut/cutting raise/raised/raising "
            "hire/hired/hiring invest/invested/investing borrow/borrowed/borrowing "
            "announce/announced/announcing",
            "the industrial estate, the high street, Brussels, the chamber of commerce, "
            "the stock exchange",
            "the finance director, small business owners, an economist at the university, "
            "the trade association, analysts",
        ),
        Topic(
            "world",
            "election parliament ceasefire summit treaty border minister refugee protest "
            "embassy drought harvest reform ballot coalition",
            "sign/signed/signing reject/rejected/rejecting negotiate/negotiated/negotiating "
            "postpone/postponed/postponing criticise/criticised/criticising "
            "support/supported/supporting monitor/monitored/monitoring",
            "Geneva, the capital, the northern provinces, the border region, "
            "the United Nations in New York",
            "the foreign minister, opposition leaders, aid agencies, election observers, diplomats",
        ),
        Topic(
            "council",
            "library bus-route school playground bridge pothole budget housing clinic "
            "swimming-pool allotment recycling-centre bin",
            "approve/approved/approving consult/consulted/consulting scrap/scrapped/scrapping "
            "repair/repaired/repairing review/reviewed/reviewing "
            "reopen/reopened/reopening fund/funded/funding",
            "the town hall, Marsh Street, the Westfield estate, the old primary school, "
            "the leisure centre",
            "councillors, residents, the council leader, parents, a spokesperson for the council",
        ),
    ),
}

#: Sentence frames by register. Fields: noun, noun2, nouns, nouns2 (plurals), adj, adj2,
#: past, base, ing, place, person, time (``when`` mid-sentence), number, connector,
#: opinion, adverb, name, weekday, month, season, pct.
FRAMES: Final[dict[str, tuple[str, ...]]] = {
    "essay": (
        "{time}, I {past} the {noun} for the first time, and it was {adj} from the start.",
        "I had always assumed that {nouns} were {adj}, but {person} showed me otherwise.",
        "{connector} the real problem was never the {noun} but the {nouns2} around it.",
        "There were {number} {nouns} on the table that evening, and every one of them "
        "needed {ing}.",
        "What matters, {opinion}, is how a {noun} behaves once nobody is watching it.",
        "It took me most of a weekend to {base} the {noun}, which says more about me than "
        "about the {noun2}.",
        "At {place} the {nouns} are older than anyone can remember.",
        "{person} laughed when I told them, then {past} the {noun2} {adverb} without a word.",
        "If you have never spent an afternoon {ing} a {adj} {noun}, I can recommend it.",
        "The {noun} did not care about my plans, and the {noun2} cared even less.",
        "{connector} I wrote everything down in a notebook, partly so that I would stop "
        "repeating the same mistakes.",
        "By the time the light went, the {noun2} was {adj2} and I was {adj}.",
        "Nobody tells you how much of this work is waiting, {opinion}.",
        "{time} I went back to {place} to see whether the {nouns} had survived.",
        "A {adj} {noun} is still a {noun}, my grandfather used to say, and he was usually right.",
        "I {past} the second {noun} more carefully, and it rewarded me with a {adj} result.",
        "Half the pleasure lies in {ing} things that other people would throw away.",
        "Some readers wrote to ask how long the {noun2} lasts; the honest answer is that "
        "nobody knows.",
        "{connector} the {nouns2} turned out to be the easy part.",
        "On {weekday} morning the {noun} looked {adj}, and I took that as a good sign.",
        "It is strange how a {adj} {noun} can change the mood of a whole {season}.",
        "I keep a list of {nouns} I would like to {base} before the end of the year.",
        "{person} once told me that every {noun} has a {adj} side, and {when} I finally saw it.",
        "The first attempt ended with a {adj} {noun2} and a long walk to {place}.",
        "I spent {number} evenings {ing} the {noun} before admitting that the {noun2} was the "
        "real culprit.",
        "Somewhere between the {noun} and the {nouns2}, the afternoon disappeared.",
        "{person} suggested I {base} the {noun} first, which turned out to be {adj} advice.",
        "There is a photograph of the {noun} from {month}, looking far more {adj} than it "
        "deserves.",
        "Whenever a {noun} goes wrong, I blame the {nouns2}, {opinion}.",
        "The {nouns} at {place} taught me more than any manual ever did.",
        "By {weekday} the {noun2} had dried out, and I could {base} it properly.",
        "It would be easy to make this sound {adj}; it was mostly cold hands and {nouns}.",
    ),
    "field": (
        "{time} we counted {number} {nouns} along the edge of {place}.",
        "The {noun} was {adj} in the low light, and the {nouns2} kept their distance.",
        "{person} {past} the {noun2} {adverb}, noting the time and the state of the tide.",
        "{connector} the wind backed to the south-west and the {nouns} moved inland.",
        "There is no better way to learn a place than {ing} it in every season.",
        "At {place} the first {nouns} of the {season} arrived three days later than last year.",
        "We {past} the {noun} twice before the rain closed in.",
        "A {adj} {noun} can tell you more about a habitat than a week of reading.",
        "The notebook for {month} is already full of {nouns2} and question marks.",
        "{connector} the {noun2} behaved exactly as the old records said it would.",
        "By noon the {nouns} had scattered, leaving only a {adj} {noun} on the mud.",
        "According to {person}, the {nouns2} are {adj2} this year, {opinion}.",
        "It was {adj} work, {ing} the same stretch of ground hour after hour.",
        "I had hoped to see a {noun} near the gate, but {place} had other ideas.",
        "Conditions were {adj}: a light breeze, thin cloud and {number} degrees.",
        "The records from {place} go back to the nineteen-sixties, and they show a {adj} pattern.",
        "We left the {noun2} undisturbed and walked back along the dyke.",
        "On {weekday} the count rose to {number}, the highest since the survey began.",
        "Nobody could say why the {nouns} had gone, {opinion}.",
        "{time} the {noun} was back in its usual place, as if nothing had happened.",
        "We reached {place} at first light and found a {adj} {noun} waiting for us.",
        "We logged {number} {nouns} before the light failed, {opinion}.",
        "{person} pointed out a {noun2} we had walked past twice without noticing.",
        "The path to {place} was {adj} after the rain, so we {past} the {nouns} from the bank.",
        "In {month} the {nouns} usually gather here in the late afternoon.",
        "By mid-morning the wind had dropped and we were {ing} the {nouns} along the edge.",
        "Our {season} totals are {adj} compared with the ten-year average.",
        "{when} the {noun2} looked different, though none of us could say why.",
        "A {adj} {noun2} turned up on {weekday}, the first record for the site in years.",
        "The survey sheets from {place} are now typed up and sent to {person}.",
    ),
    "news": (
        "{person} {past} plans for the {noun} on {weekday}, after months of debate.",
        '"We have {past} every {noun} we could," said {name}, speaking to reporters at {place}.',
        "Figures published {when} show the number of {nouns} rose by {pct} per cent over the year.",
        "{connector} critics say the {noun2} will cost far more than the {number} million "
        "pounds set aside.",
        "The decision means that {nouns} at {place} could be {adj} until at least {month}.",
        "{name}, who has worked at {place} for {number} years, said the mood was {adj}.",
        "A report by {person} warned that the {noun} was {adj} and in need of urgent repair.",
        "{person} will be asked to {base} the {noun2} when the board meets again in {month}.",
        "The {noun} has been {adj2} since {month}, according to documents seen by the Gazette.",
        "{connector} the {nouns2} remain a sore point for many people in the area.",
        "Officials declined to say how many {nouns} would be affected by the change.",
        '"This is a {adj} day for everyone who depends on the {noun}," {name} said.',
        "The plan was first proposed {when}, but it stalled after a row over funding.",
        "Objectors have until the end of {month} to respond to the consultation.",
        "Local traders said they had {past} the {noun2} for weeks, {opinion}.",
        "The {noun} is expected to {base} by about {pct} per cent next year.",
        "Previous attempts to {base} the {nouns} ended in court.",
        "{name} added that the {noun} would be reviewed every {number} months.",
        "A spokesperson for {person} said it was too early to comment on the {noun2}.",
        "The vote was {number} to {number}, with two abstentions.",
        "{name}, a {adj} voice in the debate, said the {nouns} had been ignored for too long.",
        "The {noun} at {place} was built in the nineteen-seventies and has never been fully "
        "modernised.",
        "Campaigners handed in a petition with {number} thousand signatures on {weekday}.",
        "{person} said in a statement that the {noun2} would go ahead as planned.",
        "According to the latest accounts, spending on {nouns} fell by {pct} per cent.",
        "Residents near {place} say they were not told about the {noun} until {month}.",
        "The row has exposed {adj} divisions over the future of the {noun2}.",
        "A final decision on the {noun} is not expected before {month}.",
        "Opposition members called the {noun2} plan {adj} and asked for an independent review.",
        "{when}, {person} {past} a similar scheme at {place}.",
    ),
}

#: Headline frames by register (fields as in :data:`FRAMES`, capitalised where needed).
HEADLINES: Final[dict[str, tuple[str, ...]]] = {
    "essay": (
        "What the {noun} taught me about {nouns2}",
        "On {adj} {nouns}",
        "Fixing a {adj} {noun}, one {noun2} at a time",
        "A {season} of {ing} {nouns}",
        "Notes on the {noun} at {place}",
        "Why I stopped worrying about the {noun}",
        "The {adj} {noun} and other small victories",
        "Learning to {base} the {noun} properly",
        "In praise of the {adj} {noun}",
        "{number} things I learned from a {noun}",
    ),
    "field": (
        "{Adj} {nouns} at {place}",
        "A {season} count of {nouns}",
        "Notes from {place}: the {noun} in {month}",
        "Waiting for the {noun} on a {adj} morning",
        "The {nouns} are back, and so is the {noun2}",
        "{Ing} {nouns} in the rain",
        "Where have all the {nouns} gone?",
        "A {adj} day on the {noun2} survey",
        "First {noun} of the {season}",
    ),
    "news": (
        "Council {past} plans for new {noun} at {place}",
        "{Nouns} face delay as {noun2} costs rise",
        "{Place} {noun} to reopen after {number}-month closure",
        "Row over {noun} deepens as {person} {past} deal",
        "Why the {noun} matters more than ever",
        "{Nouns} up {pct} per cent, new figures show",
        "{Person} {past} {noun} plan after public outcry",
        "Inside the fight over the {noun} at {place}",
        "{Adj} {noun} raises questions for {person}",
        "{Number} {nouns} at risk as {noun2} deal stalls",
    ),
}

#: Reader comments (Marginalia's comment sections); conversational, not the post's prose.
COMMENT_FRAMES: Final[tuple[str, ...]] = (
    "Lovely piece. We had exactly the same trouble with our {noun} last {season}.",
    "Did you try {ing} the {noun} first? It worked for me, eventually.",
    "Thanks for writing this up, {first}. Bookmarked for the weekend.",
    "My mother swore by a {adj} {noun}, though I never understood why.",
    "I think you are being too hard on the {nouns}, to be honest.",
    "Great write-up! Any chance of a follow-up on the {noun2}?",
    "This brought back memories of {place}. Thank you.",
    "Small correction: it was {number} years ago, not ten, but the point stands.",
    "Same here. The {noun} in our street is even worse.",
    "I laughed out loud at the bit about the {noun2}.",
)

#: Time expressions that open or close sentences.
TIMES: Final[tuple[str, ...]] = (
    "Last spring",
    "Early on Saturday",
    "A week later",
    "In the autumn of that year",
    "On a wet Tuesday in March",
    "After the second winter",
    "Yesterday",
    "Two years ago",
    "Before dawn",
    "Late in the afternoon",
    "Earlier this month",
    "Last weekend",
)

#: Sentence connectors.
CONNECTORS: Final[tuple[str, ...]] = (
    "However,",
    "In the end,",
    "For a while,",
    "Looking back,",
    "Even so,",
    "Meanwhile,",
    "As it happens,",
    "To be fair,",
    "Still,",
    "Oddly enough,",
    "Predictably,",
)

#: Hedges and asides.
OPINIONS: Final[tuple[str, ...]] = (
    "I suspect",
    "as far as I can tell",
    "or so it seems",
    "if the records are right",
    "according to some",
    "at least in my experience",
    "to put it mildly",
    "whatever the experts say",
)

ADJECTIVES: Final[tuple[str, ...]] = tuple(
    "quiet stubborn fragile patient generous awkward beautiful reliable muddy bright "
    "unexpected modest ordinary peculiar careful cheerful tired restless gentle sturdy "
    "crooked tidy noisy cautious remarkable worn elegant familiar hopeful uncertain "
    "unusual ambitious expensive fragrant damp weathered".split()
)
ADVERBS: Final[tuple[str, ...]] = tuple(
    "carefully slowly quietly briskly reluctantly patiently cheerfully thoroughly "
    "gently twice again nervously".split()
)
FIRST_NAMES: Final[tuple[str, ...]] = tuple(
    "Alice Bernard Chloe Dev Eleanor Farid Grace Hamish Imogen Jonah Kirsty Luca Maya "
    "Nadia Owen Priya Quentin Rosa Samir Tamsin Ursula Victor Wendy Yusuf Zoe".split()
)
LAST_NAMES: Final[tuple[str, ...]] = tuple(
    "Ashworth Brennan Castellano Dunmore Ellery Fairclough Gallagher Haddad Iversen "
    "Jokinen Kowalski Lindqvist Mbeki Nakamura Okafor Pemberton Quist Rahman Sutherland "
    "Thorne Underwood Vasquez Whitaker Yardley".split()
)
WEEKDAYS: Final[tuple[str, ...]] = (
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
)
MONTHS: Final[tuple[str, ...]] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
SEASONS: Final[tuple[str, ...]] = ("spring", "summer", "autumn", "winter")
#: Subheadings of long blog posts (each has fields, so two posts rarely share one).
SUBHEADINGS: Final[tuple[str, ...]] = (
    "Back at {place}",
    "What the {nouns2} did next",
    "A second look at the {noun}",
    "The {season} after",
    "What I would do differently with the {noun}",
    "Counting {nouns} again",
    "The {noun} question",
    "{Adj} {nouns} and a {adj2} {noun2}",
)
