from capqa.cli import main

raise SystemExit(main())
