"""The tables built from a rule file's declarations for one player count: parameters, zones,
pieces, orders, variables, teams, and who owns and sees what.

May import: the language, engine values and errors.
"""
from __future__ import annotations


from ..language import constants
from ..language import syntax as S
from ..language.limits import MAX_PIECES
from . import geometry
from .errors import RuleError
from .program import describe
from .values import Piece, Player, Team, ZoneId, plain

DEFAULT_MAX_MOVES = 5000
LOOP_PASSES_PER_STEP = 10       # loop passes allowed between two decisions, per unit of `max steps`
TRIGGER_ROUNDS = 64             # rounds of triggers firing each other after one change, before it is an error


class Tables:
    """The part of a Game built from declarations before anything is compiled."""

    def build_tables(self):
        r = self.rules
        self.params: dict[str, object] = {}
        self.defines = {d.name: d for d in r.of(S.Define)}
        self.rule_decls = {d.name: d for d in r.of(S.Rule)}
        self.questions = {d.name: d for d in r.of(S.Question)}
        for p in r.of(S.Parameter):
            if p.by_players:
                table = dict(p.by_players)
                expr = table.get(self.n, p.otherwise)
                if expr is None:
                    raise RuleError("parameter", f"parameter '{p.name}' has no value for {self.n} players", p.span)
            else:
                expr = p.value
            self.params[p.name] = self.const(expr, f"parameter '{p.name}'")
        # zones
        self.zone_names: list[str] = []
        self.zone_owner: list = []
        self.zone_seen: list[str] = []
        self.zone_kind: list[str] = []
        self.zones: dict[str, object] = {}      # name -> ZoneId or tuple of ZoneId per player/team/piece
        self.family_index: dict[str, dict] = {}     # per-piece zones: piece -> position in the family
        by_piece = [z for z in r.of(S.Zone) if z.per not in (None, "player", "team")]
        for z in r.of(S.Zone):
            if z.per in ("player", "team"):
                keys = self._players if z.per == "player" else self.teams
                self.zones[z.name] = tuple(self.new_zone(f"{z.name}({int(p) + 1})", p, z.seen_by, z.kind)
                                           for p in keys)
            elif z.per is None:             # zones per piece are made once the pieces exist, below
                self.zones[z.name] = self.new_zone(z.name, None, z.seen_by, z.kind)
        from ..constructs.board import size_of
        self.board_sizes: dict[str, tuple[int, int]] = {}
        self.board_decls: dict[str, S.Board] = {}
        self.space_at: dict[int, tuple[str, int, int]] = {}     # a space's zone -> (board, column, row)
        self.board_graph: dict[str, tuple] = {}     # a track's or route's spaces -> what touches each
        for b in r.of(S.Board):
            cells = []
            if b.shape != "grid":
                labels = b.labels()
                index = {x: i + 1 for i, x in enumerate(labels)}
                self.board_graph[b.name] = geometry.graph(len(labels), b.shape == "track", b.loop,
                                                          ((index[x], index[y]) for x, y in b.links))
            width, height = (len(b.labels()), 1) if b.shape != "grid" else (size_of(self, b.width), size_of(self, b.height))
            self.board_sizes[b.name] = (width, height)
            self.board_decls[b.name] = b
            for y in range(1, height + 1):
                for x in range(1, width + 1):
                    self.space_at[len(self.zone_names)] = (b.name, x, y)
                    cells.append(ZoneId(len(self.zone_names)))
                    self.zone_names.append(f"{b.name}({b.labels()[x - 1]})" if b.shape != "grid" else f"{b.name}({x},{y})")
                    self.zone_owner.append(None)
                    self.zone_seen.append("everyone")
                    self.zone_kind.append("space")
            self.zones[b.name] = tuple(cells)
        # pieces
        self.kind_of: list[str] = []
        self.piece_attrs: list[dict] = []
        self._columns: dict = {}            # (attribute, order) -> attribute_column
        self._alike_classes = None          # engine.order.piece_classes, worked out at a set's first listing
        self.piece_label: list[str] = []
        self.initial_zone: list[int] = []
        self.initial_face: list = []
        self.wild_face: dict[str, object] = {}
        self.faces: dict[str, tuple] = {}
        self.piece_owner: list = []
        for c in r.of(S.Component):
            home = self.zones.get(c.home) if c.home else None
            own_homes = isinstance(home, tuple) and c.count_per_player and not c.cards \
                and len(home) == self.n and c.home not in self.family_index
            if home is None or (isinstance(home, tuple) and not own_homes):
                raise RuleError("component", f"'{c.name}' needs a shared zone to start in ('in ZONE'), "
                                             f"or a zone per player when it is counted per player", c.span)
            if c.kind == "dice":
                self.faces[c.name] = tuple(c.faces)
                self.wild_face[c.name] = c.wild
            specs = c.cards or (S.CardSpec(c.name, (), c.count, c.span),)
            for spec in specs:
                count = self.const(spec.count, f"the count of '{c.name}'") if spec.count is not None else 1
                if count < 0:
                    raise RuleError("component", f"'{c.name}' cannot have {count} pieces", spec.count.span)
                owners = self._players if c.count_per_player and not c.cards else (None,)
                if len(self.kind_of) + int(count) * len(owners) > MAX_PIECES:
                    raise RuleError("component", f"the game would have more than {MAX_PIECES:,} pieces "
                                    f"('{c.name}' adds {int(count) * len(owners):,})",
                                    spec.count.span if spec.count is not None else c.span)
                # pieces counted per player belong to a player: `x.owner`, and their zone if it is per player
                for owner in owners:
                    for _ in range(int(count)):
                        self.kind_of.append(c.name)
                        attrs = dict(spec.attrs)
                        self.piece_attrs.append(attrs)
                        self.piece_label.append(spec.name if c.cards else c.name)
                        self.piece_owner.append(owner)
                        self.initial_zone.append(home[owner] if own_homes else home)
                        self.initial_face.append(c.faces[0] if c.kind == "dice" and c.faces else None)
        self.pieces = tuple(Piece(i) for i in range(len(self.kind_of)))
        self.piece_faces = [self.faces.get(k) for k in self.kind_of]     # a die's faces; None for any other piece
        self.piece_face_counts = tuple(None if f is None else len(f) for f in self.piece_faces)
        self.kind_pieces: dict[str, tuple] = {}
        for p in self.pieces:
            self.kind_pieces.setdefault(self.kind_of[p], []).append(p)
        self.kind_pieces = {k: tuple(v) for k, v in self.kind_pieces.items()}
        for z in by_piece:
            of = self.kind_pieces.get(z.per)
            if of is None:
                raise RuleError("zone", f"zone '{z.name}' is kept per '{z.per}', which is not a component", z.span)
            # the piece owns its zone, so holder(x) of what lies there is that piece (a space, say)
            self.zones[z.name] = tuple(self.new_zone(f"{z.name}(#{int(piece)})", piece, z.seen_by, z.kind)
                                       for piece in of)
            self.family_index[z.name] = {piece: k for k, piece in enumerate(of)}
        # orders: value -> strength (higher is stronger)
        self.orders: dict[str, tuple[str, dict]] = {}
        for o in r.of(S.Order):
            strength = {}
            for i, group in enumerate(o.ranks):
                for v in group:
                    strength[v] = len(o.ranks) - i
            self.orders[o.name] = (o.attribute, strength)
        # variables
        self.var_slots: dict[str, int] = {}
        self.pvar_slots: dict[str, int] = {}        # kept per player, per team or per piece
        self.var_decls: dict[str, S.Counter] = {}
        self.piece_index: dict[str, dict] = {}      # counters kept per piece, zone or value: key -> its value's position
        self.pair_width: dict[str, int] = {}        # counters kept per two keys: how many values the second takes
        for v in r.of(S.Counter):
            self.var_decls[v.name] = v
            if v.per:
                self.pvar_slots[v.name] = len(self.pvar_slots)
            if v.per2 is not None:      # one value per pair of keys, the second running fastest
                pairs = [(a, b) for a in self.keys_of(r, v.per) for b in self.keys_of(r, v.per2)]
                self.piece_index[v.name] = {key: k for k, key in enumerate(pairs)}
                self.pair_width[v.name] = len(self.keys_of(r, v.per2))
            elif v.per not in (None, "player", "team"):
                self.piece_index[v.name] = {key: k for k, key in enumerate(self.keys_of(r, v.per))}
            else:
                self.var_slots[v.name] = len(self.var_slots)
        self.symbols = set()
        for attrs in self.piece_attrs:
            for v in attrs.values():
                if isinstance(v, str):
                    self.symbols.add(v)
        for c in r.of(S.Component):
            for f in c.faces:
                if isinstance(f, str):
                    self.symbols.add(f)
        for o in r.of(S.Order):
            for g in o.ranks:
                for v in g:
                    if isinstance(v, str):
                        self.symbols.add(v)
        mx = self.rules.game.max_steps if self.rules.game else None
        self.max_moves = self.const(mx, "max steps") if mx is not None else DEFAULT_MAX_MOVES
        if self.max_moves < 1:
            raise RuleError("game", f"max steps must be at least 1, not {self.max_moves}", mx.span)
        self.max_moves_from = (f"max steps ({self.rules.path_of(mx.span)}:{mx.span.line}:{mx.span.column})" if mx is not None
                               else "default")
        self.max_passes = LOOP_PASSES_PER_STEP * self.max_moves

    def attribute_column(self, name, strength=None) -> list:
        """Each piece's value of attribute `name` (None where it has none), or with `strength`
        (an order's table) that value's strength (0 where it has none): a list read by piece number."""
        key = (name, id(strength))
        column = self._columns.get(key)
        if column is None:
            column = [a.get(name) for a in self.piece_attrs] if strength is None else \
                [strength.get(a.get(name), 0) for a in self.piece_attrs]
            self._columns[key] = column
        return column

    def keys_of(self, r, per: str) -> tuple:
        """What a counter kept `per` a name has one value for: each piece of a component, each
        zone of a family (`per hand`: every player's hand), or each value of a card attribute
        (`per suit`), in the order the cards are listed; each player or team for a counter's
        other key where it has two."""
        if per == "player":
            return self._players
        if per == "team":
            return self.teams
        if any(c.name == per for c in r.of(S.Component)):
            return self.kind_pieces.get(per, ())
        if isinstance(self.zones.get(per), tuple):
            return self.zones[per]
        return tuple(dict.fromkeys(a[per] for a in self.piece_attrs if a.get(per) is not None))

    def space(self, board: str, x: int, y: int) -> ZoneId:
        """The zone of the space in column x, row y of a board (both from 1)."""
        return self.zones[board][(y - 1) * self.board_sizes[board][0] + x - 1]

    def near(self, board: str, x: int, y: int) -> tuple[tuple[int, int], ...]:
        """The spaces next to (x, y) on a board, as its adjacency (or its track and routes) has it."""
        if board in self.board_graph:
            return tuple((i, 1) for i in self.board_graph[board][x - 1])
        w, h = self.board_sizes[board]
        return geometry.neighbours(w, h, self.board_decls[board].adjacency, x, y)

    def new_zone(self, name, owner, seen, kind) -> ZoneId:
        self.zone_names.append(name)
        self.zone_owner.append(owner)
        self.zone_seen.append(seen)
        self.zone_kind.append(kind)
        return ZoneId(len(self.zone_names) - 1)

    def const(self, expr, what="this value"):
        """A whole number worked out before play (dsl/language/constants.py says from what);
        anything else is a RuleError."""
        def value_of(name):
            if name == "player_count":
                return self.n
            if name in ("true", "false"):
                return name == "true"
            return self.params[name]
        try:
            v = constants.evaluate(expr, value_of)
        except constants.NotConstant as bad:
            raise RuleError("constant", f"{what} must be worked out from numbers, earlier parameters and "
                                        f"player_count; '{describe(bad.node)}' cannot be used here", bad.node.span)
        except (TypeError, ValueError, ZeroDivisionError, ArithmeticError) as err:
            raise RuleError("constant", f"{what} cannot be worked out ({err})", expr.span)
        if isinstance(v, bool) or not isinstance(v, int):
            raise RuleError("constant", f"{what} must be a whole number, not {plain(v)!r}", expr.span)
        return v

    def players_in(self, x) -> tuple:
        """A player, or every member of a team; nobody is no one."""
        if x is None:
            return ()
        if isinstance(x, Team):
            return self.team_members[x]
        return (x,)

    def zone_visible(self, zone, player) -> bool:
        """Whether `player` sees the contents of a zone, as its `seen by` says: everyone, its
        owner (the player or their team), the others (everyone but its owner), or nobody."""
        seen = self.zone_seen[zone]
        if seen == "everyone":
            return True
        if seen == "owner":
            return self.owned_by(zone, player)
        return seen == "others" and not self.owned_by(zone, player)

    def owned_by(self, zone, player) -> bool:
        """Whether a zone belongs to this player: their own, or their team's."""
        owner = self.zone_owner[zone]
        if isinstance(owner, Team):
            return player in self.team_members[owner]
        return isinstance(owner, Player) and owner == player

    def acting_player(self, s, x):
        """Who takes a decision for x: x itself, or for a team its first member still in."""
        if isinstance(x, Team):
            return next((p for p in self.team_members[x] if s.alive[p]), None)
        return x
