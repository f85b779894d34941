"""Hand-written reference simulation of Democracy, the rules of games/democracy.rules.

The plain-Python speed baseline for the rules engine on a card game: the Python a designer
would write for these rules, random players choosing uniformly among the cards in hand.
Follows the rule file step by step: gather and shuffle, two days of dealing (each player and
the voting pool), a trick per pool card (turn the ballot, trump is its suit; everyone plays a
card at once; the best trump takes the trick, else a single best card, else the tied cards'
players keep their own card and the rest is discarded), tribe points per suit of 13 points,
until someone has 5 tribe points.
"""
import argparse
import random
import time

SUITS = ("spade", "heart", "diamond", "club")
RANKS = ((5, 5), (4, 4), (3, 3), ("A", 3), ("K", 2), ("Q", 2), ("J", 2), (10, 1), (9, 1), (8, 1), (7, 1), (6, 0))
# order strength of rank: 5 = joker > 4 > 3 > A > K > Q > J > 10 > 9 > 8 > 7 > 6
STRENGTH = {5: 11, "joker": 11, 4: 10, 3: 9, "A": 8, "K": 7, "Q": 6, "J": 5, 10: 4, 9: 3, 8: 2, 7: 1, 6: 0}
DEAL_SIZE = {2: 8, 3: 6, 4: 5, 5: 4, 6: 3}
JOKERS = {4: 2, 6: 1}
TARGET, DAYS, SUIT_MAJORITY = 5, 2, 13


def new_deck(players: int) -> list[tuple]:
    """Cards as (suit, strength, points); a joker has no suit."""
    deck = [(suit, STRENGTH[rank], points) for suit in SUITS for rank, points in RANKS]
    deck += [(None, STRENGTH["joker"], 0)] * JOKERS.get(players, 0)
    return deck


def play_game(players: int, rng: random.Random) -> tuple[list[int], int]:
    """One random game; returns the winners (seats) and the number of decisions."""
    deck = new_deck(players)
    size = DEAL_SIZE[players]
    tribe = [0] * players
    moves = 0
    rng.shuffle(deck)
    while max(tribe) < TARGET:
        stock = list(deck)          # gather every card back and shuffle
        rng.shuffle(stock)
        scored = [[] for _ in range(players)]
        for _ in range(DAYS):
            hands = []
            for _ in range(players):
                hands.append(stock[-size:])
                del stock[-size:]
            pool = stock[-size:]
            del stock[-size:]
            while pool:
                ballot = pool.pop()
                trump = ballot[0]
                played = []
                for hand in hands:      # everyone at once: each picks from their own hand
                    played.append(hand.pop(rng.randrange(len(hand))))
                    moves += 1
                trumps = [i for i, c in enumerate(played) if trump is not None and c[0] == trump]
                if trumps:
                    best = max(played[i][1] for i in trumps)
                    winner = next(i for i in trumps if played[i][1] == best)
                    scored[winner] += played + [ballot]
                    continue
                best = max(c[1] for c in played)
                tied = [i for i, c in enumerate(played) if c[1] == best]
                if len(tied) == 1:
                    scored[tied[0]] += played + [ballot]
                else:
                    for i in tied:      # the tied players keep their own card; the rest is discarded
                        scored[i].append(played[i])
        for p in range(players):
            for suit in SUITS:
                if sum(c[2] for c in scored[p] if c[0] == suit) >= SUIT_MAJORITY:
                    tribe[p] += 1
    top = max(tribe)
    return [p for p in range(players) if tribe[p] == top], moves


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    wins = [0] * a.players
    moves = 0
    t = time.perf_counter()
    for _ in range(a.n):
        winners, m = play_game(a.players, rng)
        moves += m
        for w in winners:
            wins[w] += 1
    dt = time.perf_counter() - t
    print(f"{a.n} games, {a.n / dt:.1f} games/s, {moves / dt:.0f} moves/s, {moves / a.n:.1f} decisions per game")
    print("wins by seat:", " ".join(f"{w / a.n:.3f}" for w in wins))


if __name__ == "__main__":
    main()
