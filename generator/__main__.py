import sys

from generator._cli import main

sys.exit(main())
