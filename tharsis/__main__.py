from tharsis.cli import main

raise SystemExit(main())
