from index.cli import main

raise SystemExit(main())
