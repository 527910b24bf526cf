"""Heuristics as data: the vocabularies the page-level features look for.

Each constant says what it is for. Class/id vocabularies are matched on *tokens* of the
``class`` and ``id`` attributes (split on punctuation, digits and camelCase), so ``ad`` in
``ad-slot`` counts but ``ad`` in ``header`` does not.
"""

from __future__ import annotations

import re
from enum import IntEnum

__all__ = [
    "CLASS_VOCABULARY",
    "COMMENT_HEADING",
    "COMMENT_HEADING_NAMES",
    "COMMENT_HEADING_TAGS",
    "POST_END_PHRASES",
    "STOPWORDS",
    "TAG_ROLES",
    "TAXONOMY_CLASS",
    "Role",
]


class Role(IntEnum):
    """What an element's class/id or tag says it is for; one bit per role in a mask."""

    NAV = 0
    HEADER = 1
    FOOTER = 2
    SIDEBAR = 3
    COMMENT = 4
    SOCIAL = 5
    RELATED = 6
    AD = 7
    META = 8
    CAPTION = 9
    CONTENT = 10
    TAGS = 11
    FORM = 12
    TITLE = 13
    LIST = 14
    TABLE = 15
    QUOTE = 16
    FIGURE = 17


#: Class/id tokens by role (layout words such as "top", "bottom", "left", "col" are left
#: out: CSS frameworks use them for spacing and grids everywhere). Sources: the boilerplate
#: classes of Readability's
#: ``unlikelyCandidates``/``positive`` lists and of common CMS themes (WordPress, Blogger,
#: Hugo, Jekyll, Drupal, news sites), in English and the common non-English variants.
CLASS_VOCABULARY: dict[Role, frozenset[str]] = {
    Role.NAV: frozenset(
        "nav navbar navigation menu menubar breadcrumb breadcrumbs crumbs pagination pager "
        "paging skip jump toc submenu dropdown tabs topnav mainnav subnav".split()
    ),
    Role.HEADER: frozenset(
        "header masthead banner topbar branding logo brand hdr kopf".split()
    ),
    Role.FOOTER: frozenset(
        "footer copyright colophon legal imprint impressum fusszeile foot ftr".split()
    ),
    Role.SIDEBAR: frozenset(
        "sidebar aside widget widgets rail sidebox secondary complementary blogroll "
        "sidebar1 sidebar2 marginal".split()
    ),
    Role.COMMENT: frozenset(
        "comment comments commentlist respond reply replies disqus discussion discuss "
        "kommentar kommentare commentaires comentarios trackback trackbacks pingback".split()
    ),
    Role.SOCIAL: frozenset(
        "share shares sharing social follow sns twitter facebook linkedin pinterest "
        "whatsapp addthis sharethis sharedaddy tweet email print teilen".split()
    ),
    Role.RELATED: frozenset(
        "related recommend recommended recommendations popular trending mostread "
        "most also teaser teasers promo outbrain taboola readmore more next prev previous "
        "similar featured yarpp recirculation".split()
    ),
    Role.AD: frozenset(
        "ad ads adv advert adverts advertisement advertising sponsor sponsored dfp gpt "
        "adslot adsense adunit commercial anzeige werbung doubleclick".split()
    ),
    Role.META: frozenset(
        "byline author authors date time meta dateline posted published timestamp "
        "pubdate postmeta entrymeta info details submitted updated".split()
    ),
    Role.CAPTION: frozenset(
        "caption credit credits figcaption photo image img gallery media thumb thumbnail "
        "wp-caption bildunterschrift".split()
    ),
    Role.CONTENT: frozenset(
        "article content post entry story body text main blog single prose markdown "
        "richtext hentry page artikel articlebody postbody storybody maincontent".split()
    ),
    Role.TAGS: frozenset("tags tag categories category topics labels keywords cat".split()),
    Role.FORM: frozenset(
        "newsletter subscribe subscription signup login search cookie cookies consent gdpr "
        "modal popup overlay paywall register form".split()
    ),
    Role.TITLE: frozenset("title headline heading hed entrytitle posttitle".split()),
}

#: Class names that name a post's topics, not an element's role: WordPress' ``post_class()``
#: and ``body_class()`` write a post's categories and tags as ``category-<slug>`` and
#: ``tag-<slug>`` (``category-kommentar``: a commentary column; ``tag-social``).
TAXONOMY_CLASS = re.compile(r"(?<!\S)(?:category|tag)-\S+")

#: Roles implied by an element's tag (HTML5 sectioning and grouping elements).
TAG_ROLES: dict[str, Role] = {
    "nav": Role.NAV,
    "menu": Role.NAV,
    "header": Role.HEADER,
    "footer": Role.FOOTER,
    "aside": Role.SIDEBAR,
    "form": Role.FORM,
    "article": Role.CONTENT,
    "main": Role.CONTENT,
    "ul": Role.LIST,
    "ol": Role.LIST,
    "dl": Role.LIST,
    "table": Role.TABLE,
    "blockquote": Role.QUOTE,
    "figure": Role.FIGURE,
    "figcaption": Role.CAPTION,
    "address": Role.META,
    "time": Role.META,
}

#: The text of a heading that opens a page's comments: counted ("12 Comments", "One
#: response to ...", "3 thoughts on ...") or a plural alone ("Comments", "Comments (3)",
#: "Kommentare"), so a French headline "Comment ..." or a documentation section "Response"
#: is none. In the gold sets' train pages 44 of the 280,700 words after such a heading
#: are body text (CleanEval aside, whose gold keeps comments).
COMMENT_HEADING = re.compile(
    r"^\W*(?:(?:\d+|no|one|two|three)\s+(?:comments?|responses?|replies|reply|thoughts?"
    r"|kommentare?|commentaires?|comentarios?)\b"
    r"|(?:reader\s+|user\s+)?(?:comments|responses|replies|kommentare|commentaires"
    r"|comentarios|commenti)\W*(?:\d+\W*)?$)",
    re.IGNORECASE,
)
#: Ids and class words of a heading that opens the comments (``h2#comments``).
COMMENT_HEADING_NAMES = frozenset({
    "comments", "commentlist", "comment-list", "comments-list", "commentslist",
    "comments-area", "comments-title", "comments-header", "comment-title",
})  # fmt: skip
#: Tags of such headings (an ``<h1>`` is the page's own title).
COMMENT_HEADING_TAGS = frozenset({"h2", "h3", "h4", "h5", "h6"})

#: Short texts that follow the end of a post (title-finding paper, section 4.2: "Comments",
#: "Post by", "Next page"), in the languages of the benchmark and blog data.
POST_END_PHRASES: frozenset[str] = frozenset(
    [
        # English
        "comments", "comment", "leave a comment", "leave a reply", "post a comment",
        "add a comment", "join the discussion", "responses", "replies", "posted by",
        "post by", "written by", "related posts", "related articles", "related stories",
        "related", "you may also like", "you might also like", "more stories",
        "read more", "recommended", "share this", "share", "share this article",
        "next page", "previous post", "next post", "older posts", "newer posts",
        "about the author", "filed under", "tags", "categories", "trackbacks",
        # German
        "kommentare", "kommentar", "kommentar schreiben", "ähnliche artikel",
        "das könnte sie auch interessieren", "weitere artikel", "mehr zum thema",
        "teilen", "artikel teilen", "nächste seite", "schlagworte", "verwandte artikel",
        # French
        "commentaires", "laisser un commentaire", "articles similaires", "partager",
        "page suivante", "publié par", "à lire aussi", "sur le même sujet",
        # Spanish / Portuguese / Italian
        "comentarios", "deja un comentario", "artículos relacionados", "compartir",
        "página siguiente", "publicado por", "comentários", "deixe um comentário",
        "posts relacionados", "artigos relacionados", "compartilhe", "próxima página",
        "postado por", "commenti", "lascia un commento", "articoli correlati",
        "condividi", "pagina successiva", "pubblicato da",
        # Dutch / Polish / Russian
        "reacties", "reageer", "gerelateerde artikelen", "delen", "volgende pagina",
        "geplaatst door", "komentarze", "dodaj komentarz", "podobne artykuły",
        "udostępnij", "następna strona", "комментарии", "оставить комментарий",
        "похожие статьи", "поделиться", "следующая страница",
        # Chinese / Japanese / Korean
        "评论", "发表评论", "相关文章", "分享", "下一页", "上一篇", "下一篇",
        "コメント", "関連記事", "シェア", "次のページ", "댓글", "관련 글", "공유",
    ]
)  # fmt: skip

#: Frequent function words of the languages in the data (en, de, fr, es, it, pt, nl, pl,
#: ru, sv). Their share in a block tells running prose from menus and labels (jusText's
#: stopword density), without a per-language model.
STOPWORDS: frozenset[str] = frozenset(
    """
    the a an and or of to in on for with at by from as is are was were be been it its this
    that these those he she they we you his her their our not but if than then so which who
    what when where how all any can will would has have had do does did there here into der
    die das und oder ein eine einer eines einem den dem des ist sind war waren mit auf für
    von zu im am nicht auch sich es er sie wir ihr als wie bei nach aus noch nur wenn dass
    daß über unter durch gegen um so le la les un une des du de et ou est sont était dans
    sur pour avec par pas que qui ce cette ces il elle ils nous vous au aux se sa son ses
    leur plus el los las una unos unas y o es son era en con por para no que se su sus al lo
    como más pero del il lo gli uno e è sono era di da con per non che si suo sua nel della
    alla anche o os as um uma e é são em com por para não que se seu sua ao do da dos das
    mais het een en of is zijn was in op voor met door niet dat die ook aan bij i w z na do
    nie to jest się że jak co od po przez dla и в не на что с по к как это а из у за о от же
    но то для och att det som är en ett på av för med till inte har
    """.split()
)
