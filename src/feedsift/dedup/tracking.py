"""Query parameters that only say where a click came from, never which document it opens.

When no URL-key rule applies, these are the only parameters a URL key drops (with the title
hash ``_cid_``): every other parameter may name the document (``?id=12``, ``?artikel=77``,
``?sku=A1``), and dropping one would store two stories as one. Names are compared without
case (the Guardian writes ``CMP``, others ``cmp``).
"""

from __future__ import annotations

__all__ = ["TRACKING_NAMES", "TRACKING_PREFIXES", "is_tracking"]

#: Name prefixes of analytics campaign families; every member only labels the campaign.
TRACKING_PREFIXES = (
    "utm_",  # Google Analytics campaigns (utm_source, utm_medium, utm_campaign, ...)
    "pk_",  # Matomo/Piwik campaigns (pk_campaign, pk_kwd, pk_source)
    "mtm_",  # Matomo tag manager campaigns
    "piwik_",  # Piwik campaigns, the old spelling
    "hsa_",  # HubSpot ads
    "__hs",  # HubSpot cookies passed in links (__hssc, __hstc, __hsfp)
)

#: Single tracking parameters of ad networks, newsletters, social sites and analytics.
TRACKING_NAMES = frozenset(
    {
        # click ids of ad networks and social sites
        "fbclid", "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "msclkid", "yclid",
        "twclid", "ttclid", "li_fat_id", "igshid", "rb_clickid",
        # newsletters and marketing automation (Mailchimp, HubSpot, Marketo, Vero, Omeda)
        "mc_cid", "mc_eid", "_hsenc", "_hsmi", "mkt_tok", "vero_id", "vero_conv",
        "oly_anon_id", "oly_enc_id",
        # analytics linkers and campaign ids (Google, Adobe, AT Internet, Webtrends, ...)
        "_ga", "_gl", "s_cid", "xtor", "at_medium", "at_campaign", "at_creation",
        "at_variant", "at_format", "wt_mc", "wt.mc_id", "cmp", "cmpid", "ncid", "ocid",
        "ito", "smid", "spm",
        # where the reader came from
        "ref", "ref_src", "ref_url", "referrer", "source",
    }
)  # fmt: skip


def is_tracking(name: str) -> bool:
    """Whether the decoded query parameter ``name`` is a known tracking parameter."""
    lowered = name.lower()
    return lowered in TRACKING_NAMES or lowered.startswith(TRACKING_PREFIXES)
