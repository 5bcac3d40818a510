"""Support of the page "Credal model averaging, trees and the reject option" (``pages/earlier_credal.py``)."""
