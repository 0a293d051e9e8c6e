#!/usr/bin/env python3
"""The eval graph of a game reviewed by `arbiter analyse --pgn FILE --plot OUT.png`.

usage: plot_eval.py DATA.json OUT.png

DATA.json is what the engine writes for the plot: the players, the result, each side's
accuracy and one point per ply (White's expected score from the WDL model, the
evaluation in centipawns clamped to +-1000, mates, and the judgement of the move).

Top: White's expected score (win 1, draw 1/2) after every move, White's side filled
light and Black's dark, as lichess draws its graph; inaccuracies, mistakes and blunders
are marked in yellow, orange and red, the mistakes and blunders labelled with the move.
Bottom: the evaluation in pawns, clamped to +-10.

Exits 3, with a message, when matplotlib is missing (the engine then skips the plot).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "nnue"))
import system_python  # noqa: E402

COLOURS = {"Inaccuracy": "#e6b400", "Mistake": "#f07c00", "Blunder": "#d32f2f"}


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.lines import Line2D
    except ImportError:
        # Debian's python3-matplotlib is for /usr/bin/python3: when the `python3` that
        # ran us is another one (a pyenv shim, say), run again under that one.
        system_python.reexec()
        print("plot_eval.py: matplotlib is not installed for this Python "
              f"({sys.executable}); install it with 'apt-get install python3-matplotlib' "
              "or 'pip install matplotlib'. No plot written.", file=sys.stderr)
        return 3
    with open(sys.argv[1], encoding="utf-8") as f:
        data = json.load(f)
    points = data["points"]
    if not points:
        print("plot_eval.py: no evaluated move to plot", file=sys.stderr)
        return 1

    plies = [p["ply"] for p in points]
    expected = [p["expected"] for p in points]
    pawns = [max(-10.0, min(10.0, p["cp"] / 100.0)) for p in points]
    # The start position, when it was evaluated (not with --side black).
    if data.get("start_expected") is not None:
        plies.insert(0, 0)
        expected.insert(0, data["start_expected"])
        pawns.insert(0, max(-10.0, min(10.0, data.get("start_cp", 0) / 100.0)))

    plt.rcParams.update({"font.family": "DejaVu Sans", "font.size": 10})
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(11, 6.2), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 1.3], "hspace": 0.08})
    fig.patch.set_facecolor("#fafafa")

    # Expected score: the area above the curve is Black's, below it White's.
    top.set_facecolor("#2b2b2b")
    top.fill_between(plies, 0, expected, color="#f4f4f4", step=None, linewidth=0)
    top.plot(plies, expected, color="#8a8a8a", linewidth=1.2)
    top.axhline(0.5, color="#9e9e9e", linewidth=0.8, linestyle="--")
    top.set_ylim(0, 1)
    top.set_xlim(plies[0], max(plies[-1], plies[0] + 1))
    top.set_yticks([0, 0.25, 0.5, 0.75, 1])
    top.set_yticklabels(["Black wins", "", "draw", "", "White wins"])
    top.set_ylabel("White's expected score")
    for p in points:
        judgement = p.get("judgement")
        if judgement in COLOURS:
            top.scatter([p["ply"]], [p["expected"]], s=46, color=COLOURS[judgement], edgecolor="white",
                        linewidth=0.8, zorder=5)
            if judgement != "Inaccuracy":
                above = p["expected"] < 0.75
                top.annotate(p["move"], (p["ply"], p["expected"]), xytext=(0, 12 if above else -16),
                             textcoords="offset points", ha="center", fontsize=8.5,
                             color=COLOURS[judgement], fontweight="bold",
                             bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.85})
    legend = [Line2D([0], [0], marker="o", color="none", markerfacecolor=c, markeredgecolor="white",
                     markersize=7, label=name) for name, c in COLOURS.items()]
    top.legend(handles=legend, loc="upper right", fontsize=8.5, framealpha=0.9)

    # Evaluation bars.
    colours = ["#e8e8e8" if v >= 0 else "#3a3a3a" for v in pawns]
    bottom.bar(plies, pawns, width=0.9, color=colours, edgecolor="#9e9e9e", linewidth=0.4)
    bottom.axhline(0, color="#757575", linewidth=0.8)
    limit = max(1.0, min(10.0, max(abs(v) for v in pawns) * 1.1))
    bottom.set_ylim(-limit, limit)
    bottom.set_ylabel("pawns (White)")
    bottom.set_facecolor("#ffffff")
    # x axis in the game's move numbers, at White's moves (about a dozen ticks).
    whites = [p for p in points if p["white"]] or points
    step = max(1, len(whites) // 12 + 1)
    ticks = whites[::step]
    bottom.set_xticks([p["ply"] for p in ticks])
    bottom.set_xticklabels([str(p["number"]) for p in ticks])
    bottom.set_xlabel("move")
    for ax in (top, bottom):
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)

    def player(name, accuracy):
        return f"{name} ({accuracy:.1f}%)" if accuracy is not None else name

    title = f"{player(data['white'], data.get('white_accuracy'))} – {player(data['black'], data.get('black_accuracy'))}"
    fig.suptitle(f"{title}    {data['result']}", fontsize=13, fontweight="bold", y=0.97)
    subtitle = "  ·  ".join(x for x in (data.get("event", ""), f"Arbiter, {data['limit']} per position") if x)
    fig.text(0.5, 0.915, subtitle, ha="center", fontsize=9, color="#616161")
    fig.subplots_adjust(left=0.1, right=0.98, top=0.89, bottom=0.09)
    fig.savefig(sys.argv[2], dpi=150, facecolor=fig.get_facecolor())
    return 0


if __name__ == "__main__":
    sys.exit(main())
