import sys

from .tune import main

sys.exit(main())
