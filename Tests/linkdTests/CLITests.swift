import TestSupport
import Testing
