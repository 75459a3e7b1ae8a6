"""Shared by the gallery tests: a designer's folder with a good, a broken and a warned card, and an HTML reader."""

from html.parser import HTMLParser

# A card whose name needs escaping, one with an unknown tag (compiles, with an error), one the parser cannot read
# (so it does not compile at all), one with a warning, one whose name the parser rejects (quotes cannot be escaped
# in card text, but the gallery still shows the card under the name written), and an award with an error that
# belongs to no card.
DESIGNER_CARDS = '''\
card "Dust <&> Co's Mine" #T1 {
  set: mine  type: automated  cost: 10  tags: building
  play: production(steel +1)
}

card "Spore Vats" #T2 {
  set: mine  type: active  cost: 7  tags: plantt
  action: gain 1 plant
}

card "Half Written" #T3 {
  set: mine  type: automated  cost: 3
  play: gain 2 plants "stray"
}

card "Far Away" #T4 {
  set: mine  type: automated  cost: 5
  play: place city on reserved "Nowhere <b>"
}

card "Quote \\"Me\\" <&>" #T6 {
  set: mine  type: event  cost: 1
  play: gain 1 heat
}

award "Gardener Of The Year" {
  measure: gremlins
}
'''


class Articles(HTMLParser):
    """The card faces of a gallery page: the attributes of each <article> and the text inside it."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.cards: list[dict] = []
        self._depth = 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self.cards.append(dict(attrs) | {"text": ""})
            self._depth = 1
        elif self._depth and tag not in ("br", "img", "input", "meta"):
            self._depth += 1

    def handle_endtag(self, tag):
        if self._depth:
            self._depth -= 1

    def handle_data(self, data):
        if self._depth:
            self.cards[-1]["text"] += data

    def named(self, name: str) -> dict:
        matches = [c for c in self.cards if c["data-name"] == name]
        assert len(matches) == 1, f"{name}: {len(matches)} faces"
        return matches[0]

    def shown(self) -> list[dict]:
        return [c for c in self.cards if "hidden" not in c]
