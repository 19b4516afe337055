import TestOrigin
