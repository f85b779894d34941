"""Hand-written reference simulation of Bluff (liar's dice), base game.

Used as a plain-Python speed baseline for the rules engine. Random agents
pick uniformly among the legal moves with rng.choice.
"""
import argparse
import json
import random
import time

FACES = 6
WILD = 6
START_DICE = 5


def next_active(dice_counts, seat):
    """Next seat after `seat` (wrapping) whose player still has dice."""
    n = len(dice_counts)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if dice_counts[s] > 0:
            return s
    raise RuntimeError("no active player")


def legal_moves(bid, total_dice):
    """Every legal raise over `bid` (or every opening bid if None), plus challenge."""
    moves = []
    if bid is None:
        for face in range(1, FACES):
            for count in range(1, total_dice + 1):
                moves.append((face, count))
        return moves
    old_face, old_count = bid
    for face in range(old_face, FACES):
        for count in range(old_count, total_dice + 1):
            if face > old_face or count > old_count:
                moves.append((face, count))
    moves.append("challenge")
    return moves


def count_matching(rolls, face):
    return sum(1 for hand in rolls for d in hand if d == face or d == WILD)


def play_game(n_players: int, rng: random.Random) -> tuple[str, int | None, int]:
    dice_counts = [START_DICE] * n_players
    starter = 0
    moves = 0
    while sum(1 for c in dice_counts if c > 0) > 1:
        # Roll: every active player, seat order, die by die.
        rolls = [[rng.randrange(6) + 1 for _ in range(c)] for c in dice_counts]
        total = sum(dice_counts)

        player = starter
        bid = None
        bidder = None
        while True:
            move = rng.choice(legal_moves(bid, total))
            moves += 1
            if move == "challenge":
                break
            bid, bidder = move, player
            player = next_active(dice_counts, player)

        challenger = player
        face, count = bid
        matching = count_matching(rolls, face)
        if matching == count:
            return ("dead_end", None, moves)
        if matching > count:
            loser, loss = challenger, matching - count
        else:
            loser, loss = bidder, count - matching
        dice_counts[loser] -= min(loss, dice_counts[loser])

        if dice_counts[challenger] > 0:
            starter = challenger
        else:
            starter = next_active(dice_counts, challenger)

    winner = next(s for s, c in enumerate(dice_counts) if c > 0)
    return ("win", winner, moves)


def main():
    parser = argparse.ArgumentParser(description="Hand-written Bluff baseline")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("-n", type=int, default=2000, help="number of games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 2 <= args.players <= 6:
        parser.error("--players must be between 2 and 6")

    rng = random.Random(args.seed)
    wins_by_seat = [0] * args.players
    dead_ends = 0
    total_moves = 0
    start = time.perf_counter()
    for _ in range(args.n):
        result, winner, moves = play_game(args.players, rng)
        total_moves += moves
        if result == "win":
            wins_by_seat[winner] += 1
        else:
            dead_ends += 1
    seconds = time.perf_counter() - start

    print(json.dumps({
        "games": args.n,
        "seconds": seconds,
        "games_per_s": args.n / seconds,
        "moves_per_s": total_moves / seconds,
        "dead_ends": dead_ends,
        "wins_by_seat": wins_by_seat,
    }))


if __name__ == "__main__":
    main()
