"""The title ranker's options: strings merged by text, origins kept, cut strings mended."""

from __future__ import annotations

import numpy as np

import feedsift
from feedsift.extractors.title_ranker import (
    RankerPage,
    choose_title_text,
    has_structured_title,
    host_spelled,
    option_features,
    title_options,
    vetoed_titles,
    visible_titles,
)
from feedsift.metadata import read_metadata
from feedsift.parsing.page import parse_page

CUT_AT_QUOTE = """<html><head><title>Salvini: «E noi diciamo "go Donald go"» - Corriere</title>
<meta property="og:title" content="Salvini: «E noi diciamo "go Donald go"»">
</head><body><h1>Salvini: «E noi diciamo "go Donald go"»</h1><p>Testo.</p></body></html>"""


def test_a_title_cut_at_an_unescaped_quote_is_folded_into_the_whole_one() -> None:
    meta = read_metadata(parse_page(CUT_AT_QUOTE))
    cut = "Salvini: «E noi diciamo"
    assert any(c.text == cut for c in meta.title_candidates)  # what the parser gives
    options = {o.text: o for o in title_options(meta, None)}
    assert cut not in options
    whole = options['Salvini: «E noi diciamo "go Donald go"»']
    assert {"opengraph/og:title", "dom/h1"} <= whole.origins


def test_the_title_block_joins_the_string_it_repeats() -> None:
    html = """<html><head><title>Big story | Example</title>
    <meta property="og:title" content="Big story"></head>
    <body><h1>Big story</h1><p>Text.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    options = {o.text: o for o in title_options(meta, "Big story")}
    assert {"opengraph/og:title", "block"} <= options["Big story"].origins
    assert options["Big story"].rank == 0
    assert "Big story | Example" in options and "Example" in options  # the <title>'s parts


def test_the_sites_own_name_is_not_a_title_option_when_others_exist() -> None:
    html = """<html><head><title>Winter rides | Bike Hugger</title></head><body>
    <h1><a href="/">Bike Hugger</a></h1><h1>Winter rides</h1><p>Text.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    assert meta.site_name == "Bike Hugger"
    texts = {o.text for o in title_options(meta, "Bike Hugger")}
    assert "Bike Hugger" not in texts and "Winter rides" in texts
    head = "<head><meta property='og:site_name' content='X'><title>X</title></head>"
    only = read_metadata(parse_page(f"<html>{head}<body><p>t</p></body></html>"))
    assert [o.text for o in title_options(only, None)] == ["X"]  # nothing else: kept


def test_a_docs_header_linking_up_to_the_docs_root_is_no_title_option() -> None:
    html = """<html><head><title>ORM Quick Start - SQLAlchemy 2.0 Documentation</title>
    </head><body><h1><a href="../index.html">SQLAlchemy 2.0 Documentation</a></h1>
    <h1>ORM Quick Start</h1><p>Declare models, then query them.</p></body></html>"""
    meta = read_metadata(parse_page(html, url="https://docs.example/en/20/orm/quickstart.html"))
    texts = {o.text for o in title_options(meta, "SQLAlchemy 2.0 Documentation")}
    assert "SQLAlchemy 2.0 Documentation" not in texts and "ORM Quick Start" in texts


def test_a_logo_heading_linking_elsewhere_is_no_option_when_others_exist() -> None:
    html = """<html><head><title>Go SDK docs are out | Authing 官方博客</title></head><body>
    <a href="/blog/"><h1><img src="logo.png"> 官方博客</h1></a><h2>Go SDK docs are out</h2>
    <p>Read them now.</p></body></html>"""
    meta = read_metadata(parse_page(html, url="https://authing.example/blog/go-sdk/"))
    texts = {o.text for o in title_options(meta, None)}
    assert "官方博客" not in texts and "Go SDK docs are out" in texts
    alone = read_metadata(parse_page(html.replace("<title>Go SDK docs are out | Authing 官方博客"
                                                  "</title>", ""), url="https://a.example/p/"))
    assert [o.text for o in title_options(alone, None)] == ["官方博客"]  # nothing else: kept
    inner = read_metadata(parse_page(html.replace("<h2>Go SDK docs are out</h2>",
                                                  "<h1>博客</h1>"), url="https://a.example/p/"))
    assert "博客" in {o.text for o in title_options(inner, None)}  # not the linked one itself


def test_a_last_title_part_that_spells_the_host_is_the_sites_name() -> None:
    html = """<html><head><meta property="og:site_name" content="REI">
    <meta property="og:title" content="Backpacking Backpacks for Overnight | REI Co-op">
    </head><body><h1>Backpacking Packs</h1><p>Text.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    options = title_options(meta, None)
    assert "REI Co-op" in {o.text for o in options}  # the ranker still sees it ...
    named = "Backpacking Backpacks for Overnight | REI Co-op"  # ... and the title with it
    assert vetoed_titles(options, meta, "https://www.rei.com/c/packs") == {"REI Co-op", named}
    assert vetoed_titles(options, meta, "https://gear.example/c/packs") == set()  # another site


def test_a_title_that_ends_with_the_sites_name_yields_to_the_headline() -> None:
    html = """<html><head><meta property="og:site_name" content="REI">
    <meta property="og:title" content="Hiking Boots: Shop Boots for Hiking | REI Co-op">
    </head><body><nav>{menu}</nav><main><h1>Hiking Boots</h1>
    <p>Boots for day hikes, for backpacking and for winter, from the brands we trust.</p>
    </main></body></html>""".replace("{menu}", "".join(f"<a href='/c/{n}'>Gear {n}</a>"
                                                    for n in range(40)))  # fmt: skip
    article = feedsift.extract(html, "https://www.rei.com/c/hiking-boots")
    assert article.title == "Hiking Boots"
    meta = read_metadata(parse_page(html))
    options = title_options(meta, None)
    vetoed = vetoed_titles(options, meta, "https://www.rei.com/c/hiking-boots")
    assert "Hiking Boots: Shop Boots for Hiking | REI Co-op" in vetoed
    assert "Hiking Boots: Shop Boots for Hiking" not in vetoed  # without the name: allowed


def test_the_sites_bare_name_is_vetoed_but_a_title_that_merely_starts_with_it_is_not() -> None:
    html = """<html><head></head><body><header><h1>Stefan Laser</h1></header>
    <h1>legal</h1><h1>GitHub2Hexo setup</h1><p>Text.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    options = title_options(meta, None)
    assert vetoed_titles(options, meta, "https://stefanlaser.net/de/legal/") == {"Stefan Laser"}


def test_a_hosting_platforms_label_names_no_site() -> None:
    html = """<html><head><title>GitHub</title></head><body><h1>Hexo</h1>
    <p>Text.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    options = title_options(meta, None)
    assert vetoed_titles(options, meta, "https://hexo.io/docs/") == {"Hexo"}
    assert vetoed_titles(options, meta, "https://someone.github.io/hexo/") == set()


def test_a_menu_items_name_never_titles_the_page() -> None:
    html = """<html><head><title>Home - The Daily Build</title></head><body>
    <nav><h2>Main navigation</h2></nav><p>Posts of the week.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    options = title_options(meta, "Main navigation")
    vetoed = vetoed_titles(options, meta, "https://build.example/")
    assert vetoed == {"Home", "Main navigation"}
    home = [o.text for o in options].index("Home")
    nothing = visible_titles([], np.zeros(0))
    ranked = RankerPage("Main navigation", 0.9, "https://build.example/", nothing)
    chosen = choose_title_text(meta, ranked, _Prefers(home))
    assert chosen is not None and chosen.text == "Home - The Daily Build"


def test_a_consent_dialogs_heading_is_vetoed_but_a_recipe_for_cookies_is_not() -> None:
    html = """<html><head><title>InfoQ: Software News - InfoQ</title></head><body>
    <div id="ccc"><h1>Your choice regarding cookies on this site</h1></div>
    <h1>Oatmeal cookies in ten minutes</h1><p>Text.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    options = title_options(meta, None)
    vetoed = vetoed_titles(options, meta, "https://www.infoq.com/")
    assert "Your choice regarding cookies on this site" in vetoed
    assert "Oatmeal cookies in ten minutes" not in vetoed


def test_the_parts_of_the_title_after_the_sites_name_are_its_tagline() -> None:
    head = '<a href="/">Notes of a tinkerer</a>'
    html = f"""<html><head><title>Perl Deparse | Notes of a tinkerer - Wisdom unused withers
    </title></head><body><header>{head}</header><h2>Wisdom unused withers</h2>
    <p>Text.</p></body></html>"""
    meta = read_metadata(parse_page(html, "http://192.0.2.7/2021/04/01/perl-deparse/"))
    options = title_options(meta, "Wisdom unused withers")
    vetoed = vetoed_titles(options, meta, "http://192.0.2.7/2021/04/01/perl-deparse/")
    assert "Wisdom unused withers" in vetoed and "Perl Deparse" not in vetoed
    first = html.replace("Perl Deparse | Notes of a tinkerer - Wisdom unused withers",
                         "Notes of a tinkerer | Perl Deparse")  # fmt: skip
    meta = read_metadata(parse_page(first, "http://192.0.2.7/2021/04/01/perl-deparse/"))
    options = title_options(meta, None)
    assert "Perl Deparse" not in vetoed_titles(options, meta, "http://192.0.2.7/p/")


class _Prefers:
    """A ranker that scores the option at ``index`` highest: the veto is what is tested."""

    n_features = 0

    def __init__(self, index: int) -> None:
        self.index = index

    def predict(self, x: np.ndarray) -> np.ndarray:
        scores = np.zeros(len(x))
        scores[self.index] = 1.0
        return scores


def test_a_blog_header_link_does_not_title_the_post() -> None:
    html = """<html><head><title>Winter rides | Bike Hugger</title></head><body>
    <header><h1><a href="/">Bike Hugger</a></h1></header>
    <article><h1>Winter rides</h1><p>We rode through the snow for three days and it was
    colder than any of us had expected, but the bikes held up well.</p></article>
    </body></html>"""
    article = feedsift.extract(html, url="https://bikehugger.example/2024/winter-rides")
    assert (article.title, article.site_name) == ("Winter rides", "Bike Hugger")


def test_a_site_name_is_spelled_by_its_host() -> None:
    assert host_spelled("nymag", "new york magazine".split()) == 3
    assert host_spelled("nymag", "new york magazine news features".split()) == 3  # name + section
    assert host_spelled("foxnews", ["foxnews", "com"]) == 1
    assert host_spelled("latimes", "los angeles times".split()) == 3
    assert host_spelled("guardian", "the guardian".split()) == 2  # "the" may be left out
    assert host_spelled("nymag", "new ideas".split()) == 0
    assert host_spelled("cnn", "central news network".split()) == 3  # initials spell it too
    assert host_spelled("cnn", "news of the day".split()) == 0  # the words' own order
    assert host_spelled("", ["x"]) == 0


def test_visible_titles_tell_printed_lines_from_links() -> None:
    texts = ["Daily Intel", "Bradley Whitford on Playing Rahm Emanuel", "A long paragraph " * 30]
    seen = visible_titles(texts, np.array([1.0, 0.0, 0.0]))
    assert seen.linked == {"daily intel"}
    assert seen.plain == {"bradley whitford on playing rahm emanuel"}  # long blocks left out


def test_a_title_printed_without_the_space_beside_cjk_is_shown() -> None:
    seen = visible_titles(["Authing 即日起支持PHP"], np.array([0.0]))
    html = """<html><head><title>Authing 即日起支持 PHP | Authing 官方博客</title></head>
    <body><h2>Authing 即日起支持PHP</h2><p>SDK.</p></body></html>"""
    meta = read_metadata(parse_page(html))
    options = [o for o in title_options(meta, None) if o.text == "Authing 即日起支持 PHP"]
    page = RankerPage(url=None, block_title=None, block_score=0.0, visible=seen)
    assert option_features(options, meta, page)[0][0] == 1.0  # printed, not as a link


OLD_NEWS = """<html><head><title>BBC NEWS | Technology | Apple iTunes phone due to launch</title>
</head><body><table><tr><td><div><a href="/">BBC NEWS</a></div>
<div><a href="/tech">Technology</a></div></td></tr>
<tr><td><b>Apple iTunes phone due to launch</b><p>Apple is expected to unveil a phone that
plays music bought from its iTunes store at an event on Wednesday, reports say.</p></td></tr>
</table></body></html>"""


def test_title_features_say_which_option_the_page_prints_and_which_part_is_longest() -> None:
    page = parse_page(OLD_NEWS)
    meta = read_metadata(page)
    assert not has_structured_title(meta)
    options = title_options(meta, None)
    texts = [b.text for b in page.view.blocks]
    link = np.array([b.link_share for b in page.view.blocks])
    ranked = RankerPage(None, 0.0, "http://news.bbc.co.uk/2/hi/technology/1.stm",
                        visible_titles(texts, link))  # fmt: skip
    rows = {o.text: row for o, row in zip(options, option_features(options, meta, ranked),
                                            strict=True)}  # fmt: skip
    assert "BBC NEWS" not in rows  # the site's name (its front-page link, in the <title>)
    headline, section = rows["Apple iTunes phone due to launch"], rows["Technology"]
    # printed plain, printed as a link, the <title>'s longest part, structured, spells host
    assert list(headline[:6]) == [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    assert list(section[:6]) == [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    spelled = rows["BBC NEWS | Technology"][:6]
    assert list(spelled[4:6]) == [0.0, 1.0]  # "bbc" spelled by its first words only
