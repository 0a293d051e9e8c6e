#!/usr/bin/env python3
"""One net generation, from self-play to a trained and measured network; every step
resumes, so the same command, run again after an interruption (Ctrl-C, `kill`, a
reboot), goes on where it stopped.

  1. datagen  self-play games (`arbiter datagen --format agame`) into DIR/NAME.agame until
              they hold enough plies for --positions training positions;
  2. convert  DIR/NAME.abin, replaced only when `arbiter convert` succeeds; when fewer than
              --positions were kept, back to step 1 for the plies still missing;
  3. train    DIR/NAME.anet with its log, loss curve and checkpoint (scripts/nnue/train.py,
              resumed from DIR/NAME.pt); DIR/NAME.trained records the finished training's
              settings and the data it read, so more data or other settings train again;
  4. match    with --match-games: the new net against --baseline, same engine (EvalFile
              for each side), scripts/match.py under fastchess, appended to
              DIR/NAME-match.pgn and resumed from the games already there.

A step is skipped when its output is complete. The defaults are generation 3's recipe
(nets/README.md); --datagen and --train replace the settings of those steps, and
--king-buckets 4 trains architecture 3 (king input buckets; the default settings' --mirror,
meaningless for it, is then left out):

  scripts/nnue/pipeline.py --engine build/arbiter --dir /data --name gen4 --positions 20000000 \\
      --match-games 400 --baseline nets/arbiter-012.anet

Exit status: 0 when every step asked for is done, 1 when one failed, 130 on Ctrl-C.
"""
import argparse
import json
import math
import os
import pathlib
import re
import shlex
import signal
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
SCRIPTS = HERE.parent
GEN3_DATAGEN = "--threads 2 --soft-nodes 2000 --nodes 8000 --seed 4 --chess960-percent 10 --dfrc-percent 10"
GEN3_TRAIN = ("--hidden 384 --buckets 8 --epochs 20 --lambda 0.75 --lr 1e-3 --lr-schedule cosine "
              "--mirror --threads 2 --seed 1")
KEPT_GUESS = 0.7  # the share of plies `convert` keeps, before the first conversion says


class StepFailed(Exception):
    pass


def log(message: str) -> None:
    print(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {message}", flush=True)


class Pipeline:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.dir = pathlib.Path(args.dir)
        name = args.name
        self.agame = self.dir / f"{name}.agame"
        self.progress = self.dir / f"{name}.agame.progress"
        self.abin = self.dir / f"{name}.abin"
        self.converted = self.dir / f"{name}.convert.json"  # what the current .abin came from
        self.checkpoint = self.dir / f"{name}.pt"
        self.net = self.dir / f"{name}.anet"
        self.trained = self.dir / f"{name}.trained"
        self.pgn = self.dir / f"{name}-match.pgn"

    # Step 1 and 2 -------------------------------------------------------------------
    def plies(self) -> int:
        """Plies in the .agame file so far (0 before the first game)."""
        if not self.progress.exists():
            return 0
        m = re.search(r"\bpositions (\d+)", self.progress.read_text())
        if not m:
            raise StepFailed(f"{self.progress}: no 'positions' field (not an --format agame run?)")
        return int(m.group(1))

    def conversion(self) -> dict | None:
        return json.loads(self.converted.read_text()) if self.converted.exists() and self.abin.exists() else None

    def data(self) -> None:
        target = self.args.positions
        while True:
            done = self.conversion()
            if done and done["plies"] == self.plies() and done["kept"] >= target:
                log(f"data: {done['kept']} positions from {done['plies']} plies (done)")
                return
            if done and done["plies"] > 0:
                # Plies still missing at the share the last conversion kept, 1% to spare.
                share = max(done["kept"] / done["plies"], 0.05)
                need = done["plies"] + math.ceil(max(target - done["kept"], 0) / share * 1.01)
            else:
                need = math.ceil(target / KEPT_GUESS)
            self.datagen_until(need)
            self.convert()

    def datagen_until(self, plies: int) -> None:
        if self.plies() >= plies:
            return
        command = [self.args.engine, "datagen", "--output", str(self.agame), "--format", "agame",
                   "--games", "1000000000", *shlex.split(self.args.datagen)]
        log(f"datagen: {self.plies()} plies, running to {plies}: {shlex.join(command)}")
        with open(self.dir / f"{self.args.name}.datagen.log", "a") as out:
            child = subprocess.Popen(command, stdout=out, stderr=out)
            try:
                while child.poll() is None and self.plies() < plies:
                    time.sleep(self.args.poll)
            finally:
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)  # ends after its current games, file intact
                child.wait()
        if child.returncode != 0 or self.plies() < plies:
            raise StepFailed(f"datagen ended with status {child.returncode} at {self.plies()} plies "
                             f"(see {self.args.name}.datagen.log)")

    def convert(self) -> None:
        plies = self.plies()
        tmp = self.abin.with_suffix(".abin.tmp")
        result = subprocess.run([self.args.engine, "convert", str(self.agame), str(tmp)],
                                capture_output=True, text=True)
        report = (result.stdout + result.stderr).strip()
        m = re.search(r"positions written (\d+)", report)
        if result.returncode != 0 or not m:
            tmp.unlink(missing_ok=True)
            raise StepFailed(f"convert failed (status {result.returncode}): {report[-500:]}")
        tmp.replace(self.abin)
        self.converted.write_text(json.dumps({"plies": plies, "kept": int(m.group(1)), "report": report}) + "\n")
        log(f"convert: {report}")

    # Step 3 -------------------------------------------------------------------------
    def train(self) -> None:
        command = [sys.executable, str(HERE / "train.py"), "--data", str(self.abin), "--checkpoint",
                   str(self.checkpoint), "--log", str(self.dir / f"{self.args.name}.log"), "--out", str(self.net),
                   *shlex.split(self.args.train)]
        conversion = self.conversion()
        # What the net is trained from: the settings and the data (not where Python or
        # the scripts live, so that a run moved to another checkout is still complete).
        recipe = json.dumps({"train": shlex.split(self.args.train), "data": str(self.abin.resolve()),
                             "plies": conversion["plies"], "kept": conversion["kept"]})
        if self.trained.exists() and self.net.exists() and self.trained.read_text().strip() == recipe:
            log(f"train: {self.net} (done)")
            return
        started = self.dir / f"{self.args.name}.training.json"
        if self.checkpoint.exists() and (not started.exists() or started.read_text().strip() != recipe):
            # A checkpoint of other data or settings: this training starts afresh.
            log(f"train: {self.checkpoint} was made from other data or settings; kept as {self.checkpoint}.old")
            self.checkpoint.replace(self.checkpoint.with_suffix(".pt.old"))
        started.write_text(recipe + "\n")
        self.trained.unlink(missing_ok=True)
        resume = ["--resume", str(self.checkpoint)] if self.checkpoint.exists() else []
        log(f"train: {shlex.join(command + resume)}")
        if subprocess.run(command + resume).returncode != 0:
            raise StepFailed("training failed")
        self.trained.write_text(recipe + "\n")

    # Step 4 -------------------------------------------------------------------------
    def match(self) -> None:
        games = self.args.match_games
        played = self.pgn.read_text().count("[Result ") if self.pgn.exists() else 0
        left = max(games - played, 0) // 2 * 2
        if left == 0:
            log(f"match: {played} games in {self.pgn} (done)")
            return
        command = [sys.executable, str(SCRIPTS / "match.py"), "--engine", self.args.engine, "--engine-name",
                   self.args.name, "--engine-option", f"EvalFile={self.net.resolve()}", "--opponent",
                   self.args.engine, "--opponent-name", "baseline", "--opponent-option",
                   f"EvalFile={pathlib.Path(self.args.baseline).resolve()}", "--tc", self.args.tc, "--games",
                   str(left), "--concurrency", str(self.args.concurrency), "--pgn", str(self.pgn), "--seed",
                   str(7 + played)]
        if self.args.book:
            command += ["--book", str(pathlib.Path(self.args.book).resolve())]
        log(f"match: {played} games played, {left} to go: {shlex.join(command)}")
        if subprocess.run(command).returncode != 0:
            raise StepFailed("the match failed")

    def status(self) -> None:
        """Where the run stands, without running anything."""
        target = self.args.positions
        done = self.conversion()
        line = f"data: {self.plies()} plies"
        if done:
            line += f"; last conversion {done['kept']} positions from {done['plies']} plies"
            complete = done["plies"] == self.plies() and done["kept"] >= target
        else:
            line += f", about {math.ceil(target / KEPT_GUESS)} needed"
            complete = False
        print(f"{line} (target {target} positions){' (done)' if complete else ''}")
        train_log = self.dir / f"{self.args.name}.log"
        epochs = re.findall(r"^epoch (\d+)/(\d+): .*$", train_log.read_text(), re.M) if train_log.exists() else []
        trained = self.trained.exists() and self.net.exists()
        print(f"train: {'done, ' + str(self.net) if trained else 'epoch %s of %s' % epochs[-1] if epochs else 'not started'}")
        if self.args.match_games:
            played = self.pgn.read_text().count("[Result ") if self.pgn.exists() else 0
            print(f"match: {played} of {self.args.match_games} games")

    def run(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        self.data()
        self.train()
        if self.args.match_games:
            self.match()


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="the arbiter binary (datagen, convert, and both match sides)")
    ap.add_argument("--dir", required=True, help="where the data, checkpoints and the net go (outside the repository)")
    ap.add_argument("--name", required=True, help="the generation's name: the files' stem")
    ap.add_argument("--positions", type=int, required=True, help="training positions to reach after conversion")
    ap.add_argument("--datagen", default=GEN3_DATAGEN, help=f"datagen settings (default: {GEN3_DATAGEN})")
    ap.add_argument("--train", default=GEN3_TRAIN, help=f"train.py settings (default: {GEN3_TRAIN})")
    ap.add_argument("--king-buckets", type=int, default=1, choices=(1, 4),
                    help="4: add train.py's --king-buckets 4 (architecture 3) to the train settings, without the "
                         "default settings' --mirror (default 1: the settings as they are)")
    ap.add_argument("--match-games", type=int, default=0, help="games against --baseline after training (0: none)")
    ap.add_argument("--baseline", help="the .anet to measure the new net against")
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--book", help="the match's openings (default: match.py's, 8moves_v3.epd of ../shared)")
    ap.add_argument("--poll", type=float, default=10.0, help="seconds between looks at datagen's progress")
    ap.add_argument("--status", action="store_true", help="print where the run stands and exit")
    args = ap.parse_args(argv)
    if args.positions < 1:
        ap.error("--positions must be at least 1")
    if args.match_games and not args.baseline:
        ap.error("--match-games needs --baseline")
    if args.match_games % 2:
        ap.error("--match-games must be even: each opening is played twice")
    if not os.access(args.engine, os.X_OK):
        ap.error(f"--engine {args.engine}: not an executable file")
    for flag in ("--output", "--format", "--games"):
        if flag in shlex.split(args.datagen):
            ap.error(f"--datagen: {flag} is the pipeline's to set")
    if args.king_buckets > 1:
        train = shlex.split(args.train)
        if any(a.split("=")[0] == "--king-buckets" for a in train):
            ap.error("--king-buckets is given both as a pipeline option and in --train")
        if args.train == GEN3_TRAIN:
            train.remove("--mirror")
        elif "--mirror" in train:
            ap.error(f"--king-buckets {args.king_buckets} with --mirror in --train: king-bucketed inputs are "
                     "already mirrored by the king's file; drop --mirror")
        # Folded into the train settings, so that the recipe (NAME.trained) records it.
        args.train = shlex.join(train + ["--king-buckets", str(args.king_buckets)])
    args.engine = str(pathlib.Path(args.engine).resolve())
    return args


def stop_on_sigterm(signum, frame):
    raise KeyboardInterrupt  # the same clean stop as Ctrl-C: datagen is told to stop, then waited for


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    try:
        if args.status:
            Pipeline(args).status()
            return 0
        Pipeline(args).run()
    except StepFailed as e:
        print(f"pipeline.py: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("pipeline.py: interrupted; the same command continues", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
