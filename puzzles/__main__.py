from puzzles._cli import main

raise SystemExit(main())
