"""A throwaway fifth game, a two-player coin-flip race, that lives only here: its rules, its pictures, its bot
package and its words. Added to the list of games by a fixture, it proves a game needs nothing shared but that one
line."""
