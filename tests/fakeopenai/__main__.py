"""`python -m tests.fakeopenai [--port N] [REPLY]`: serve one fixed reply, to try the CLI by hand.

python -m tests.fakeopenai --port 8765 "文章说 Composer 2 …… [1]" &
LLM_BASE_URL=http://127.0.0.1:8765/v1 LLM_MODEL=fake python -m index ask "What is Composer 2?"
"""

from __future__ import annotations

import argparse
import time

from .server import FakeOpenAI, Reply


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.fakeopenai")
    parser.add_argument("reply", nargs="?", default="NOT_IN_ARTICLE", help="what the model always says")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any free one)")
    args = parser.parse_args()
    fake = FakeOpenAI(default=Reply.text(args.reply))
    fake.port = args.port
    with fake:
        print(f"serving {fake.base_url}  (Ctrl-C stops)", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
