package table

// Table names. An experiment writes table T to results/<experiment>/T.parquet;
// the name is also stored under the "table" metadata key of every file.
const (
	Squares     = "squares"
	Lengths     = "lengths"
	DeadEnds    = "deadends"
	Classes     = "classes"
	Boards      = "boards"
	Comparisons = "comparisons"
	Claims      = "claims"
	Walks       = "walks"
	Counts      = "counts"
	Designs     = "designs"
	Sieve       = "sieve"
	// TourEstimates is written by `experiment count --method sample`.
	TourEstimates = "tour_estimates"
)

// SieveRow is one stage of a sieve for one cell: a rule and a start
// square, followed from board to board (docs/designs.md, "Sieves"). The
// cell's walks on the stage's boards, in the order given, stop at its
// first failure; Passed says whether it met the stage's keep and went on.
type SieveRow struct {
	Experiment string
	Stage      int32  // from 1
	Keep       string // fails or succeeds
	Rule       string
	Start      string // the square's name (a1, or r0c0 where a board of the sieve has over 26 columns)
	StartRow   int32
	StartCol   int32
	Boards     int32 // boards of the stage the cell walked
	Steps      int64 // squares visited by those walks
	// FailedBoard is the first board of the stage where the cell's walk
	// failed, with its sides and the failing walk's length; null where
	// none did.
	FailedBoard  string
	FailedRows   NullInt32
	FailedCols   NullInt32
	FailedLength NullInt64
	Passed       bool // met the stage's keep: went on to the next stage
	Kept         bool // passed every stage: the sieve keeps the cell (on each of its rows)
	Params       RuleParams
}

// DesignRow summarises one design (a rule entry that crosses lists of
// parameter values, such as order: all) from one start square of one
// board: its cells (rules) counted by how their walks from the square
// ended. For a deterministic rule (warnsdorff/first: one walk per cell)
// CellsFailing is the number of parameter values (move orders) under which
// the rule fails from the square.
type DesignRow struct {
	Experiment  string
	Board       string
	Rows        int32
	Cols        int32
	Design      string // the entry's key in the experiment file: "rules[0]"
	Rule        string // the entry as rule_spec writes a rule, each design factor's values in braces: "warnsdorff;tie_break=first;order=all"
	Start       string
	StartRow    int32
	StartCol    int32
	StartClass  string
	StartDegree int32

	Cells           int64 // rules of the design
	CellsSucceeding int64 // cells every walk of which from the square is a tour
	CellsFailing    int64 // cells with some walk from the square that is no tour: Cells − CellsSucceeding
	CellsNever      int64 // cells no walk of which from the square is a tour
	Walks           int64
	Successes       int64
	Closed          int64
	Deterministic   bool // every cell draws nothing: one walk per cell decides it
}

// SquareRow is one row of the squares table: everything measured for one
// (board, rule, start square).
type SquareRow struct {
	Experiment  string // the experiment's name
	Board       string // "8x8"
	Rows        int32
	Cols        int32
	Rule        string // "warnsdorff/random"
	Start       string // "a1"
	StartRow    int32
	StartCol    int32
	StartClass  string // corner, edge, centre or interior
	StartDegree int32

	Walks       int64
	Successes   int64
	SuccessRate float64
	SuccessLo   float64
	SuccessHi   float64
	Closed      int64
	ClosedRate  float64
	ClosedLo    float64
	ClosedHi    float64
	Stopped     int64 // walks cut short by max_steps

	// Deterministic: the rule draws nothing, its one walk from the start
	// decides it, and the intervals are null (NaN).
	Deterministic bool
	// ExactSuccess and ExactClosed are P(success) and P(closed) by
	// enumeration (experiment key exact), NaN (null) where not computed.
	ExactSuccess float64
	ExactClosed  float64
	// ExactLower and ExactUpper certify P(success) by enumeration: equal
	// to ExactSuccess where it is exact, the certified bounds where the
	// enumeration dropped states (experiment key exact: bounds; then
	// ExactSuccess is NaN), NaN (null) where not computed.
	ExactLower, ExactUpper float64
	// Stop says why a sequential run stopped walking from this square (one
	// of StopReasons); "" (null) in a run of a fixed number of walks.
	Stop string
	// SuccessCSLo and SuccessCSHi are the always-valid interval of a
	// sequential run (stats.ConfidenceSequence), beside the fixed-n one;
	// NaN (null) in a run of a fixed number of walks.
	SuccessCSLo float64
	SuccessCSHi float64
	// Estimator says what produced the row: plain walks, or multilevel
	// splitting (rule key estimator); SuccessSE is the success rate's
	// standard error (binomial for walks, over the replicates for
	// splitting).
	Estimator string
	SuccessSE float64

	LengthMean   float64
	LengthSD     float64
	LengthMin    int32
	LengthP05    int32
	LengthP25    int32
	LengthMedian int32
	LengthP75    int32
	LengthP95    int32
	LengthMax    int32

	TiesMean       float64
	NodesMean      float64 // backtrack rule only, else NaN (null)
	BacktracksMean float64 // backtrack rule only, else NaN (null)
	BudgetExceeded int64

	Params RuleParams // the rule's parameters

}

// LengthRow is one non-zero bin of the path-length histogram of one
// (board, rule, start square).
type LengthRow struct {
	Experiment string // the experiment's name
	Board      string
	Rows       int32
	Cols       int32
	Rule       string
	Start      string
	StartRow   int32
	StartCol   int32

	Length int32
	Count  int64
	// ExactShare is P(path length = Length) by enumeration (experiment key
	// exact), NaN (null) where not computed.
	ExactShare float64

	Params RuleParams // the rule's parameters

}

// DeadEndRow counts the failed walks of one (board, rule, start square) that
// ended on one square. Only squares with a non-zero count have a row.
type DeadEndRow struct {
	Experiment string // the experiment's name
	Board      string
	Rows       int32
	Cols       int32
	Rule       string
	Start      string
	StartRow   int32
	StartCol   int32

	End    string
	EndRow int32
	EndCol int32
	Count  int64

	Params RuleParams // the rule's parameters

}

// ClassRow aggregates the start squares of one group (a start class or a
// degree) on one board under one rule.
type ClassRow struct {
	Experiment string // the experiment's name
	Board      string
	Rows       int32
	Cols       int32
	Rule       string
	GroupBy    string // "class" or "degree"
	Group      string // "corner", or "8" for degree 8
	Squares    int32  // start squares in the group

	Walks         int64
	Successes     int64
	SuccessRate   float64
	SuccessLo     float64
	SuccessHi     float64
	Closed        int64
	ClosedRate    float64
	ClosedLo      float64
	ClosedHi      float64
	Deterministic bool    // the rule draws nothing: one walk per start, no interval
	ExactSuccess  float64 // mean exact P(success) of the squares, NaN (null) unless every one has it
	LengthMean    float64
	// SuccessCSLo and SuccessCSHi are a sequential run's always-valid
	// interval (stats.ConfidenceSequence at the run's confidence) of the
	// pooled successes / walks, the interval a claim on the group judges
	// its verdict by; NaN (null) in a run of a fixed number of walks and
	// for a deterministic rule.
	SuccessCSLo float64
	SuccessCSHi float64

	Params RuleParams // the rule's parameters

}

// BoardRow pools every start square of one board under one rule.
type BoardRow struct {
	Experiment string
	Board      string
	Rows       int32
	Cols       int32
	Rule       string
	Squares    int32 // start squares run

	Walks          int64
	Successes      int64
	SuccessRate    float64
	SuccessLo      float64
	SuccessHi      float64
	Closed         int64
	ClosedRate     float64
	ClosedLo       float64
	ClosedHi       float64
	Deterministic  bool    // the rule draws nothing: one walk per start, no interval
	ExactSuccess   float64 // mean exact P(success) of the squares, NaN (null) unless every one has it
	DeadEnds       int64   // walks with outcome dead_end
	Stopped        int64
	BudgetExceeded int64
	LengthMean     float64

	Params RuleParams
}

// ComparisonRow compares the success rates of two sides on one board: two
// groups under one rule (Compare "groups") or one group under two rules
// (Compare "rules").
type ComparisonRow struct {
	Experiment string
	Board      string
	Rows       int32
	Cols       int32
	Compare    string // "groups" or "rules"
	GroupBy    string
	RuleA      string
	GroupA     string
	RuleB      string
	GroupB     string

	WalksA     int64
	SuccessesA int64
	RateA      float64
	WalksB     int64
	SuccessesB int64
	RateB      float64
	Diff       float64 // RateA - RateB
	DiffLo     float64
	DiffHi     float64
	PValue     float64
	PHolm      float64 // PValue adjusted by Holm within Family
	// Family is the comparison's Holm family (experiment key
	// comparison_family): "8x8 warnsdorff/random: classes", "8x8 centre:
	// rules", "8x8" or "run".
	Family string
	// RuleSpecA and RuleSpecB are the rule_spec of RuleA and RuleB.
	RuleSpecA string
	RuleSpecB string
}

// ClaimRow is the verdict on one published claim.
type ClaimRow struct {
	Experiment string // the experiment's name
	ID         string
	Source     string
	Rule       string
	Board      string
	Target     string // "class:centre", "square:d4", "degree:8"
	Kind       string // rate, range, below, above; share, first-failure, failing-share for a set of boards

	ClaimedLo float64
	ClaimedHi float64

	Walks     int64
	Successes int64
	Measured  float64
	Lo        float64
	Hi        float64
	Exact     float64 // the exact value of the measured quantity, NaN (null) where not computed
	// ExactLower and ExactUpper are certified bounds on the measured
	// quantity (the means of its squares' bounds; equal to Exact where
	// that is known), NaN (null) where some square has none.
	ExactLower, ExactUpper float64
	// CSLo and CSHi are a sequential run's always-valid interval, which
	// decides its sampled verdict; Stop says whether the claim was decided
	// or its squares reached max. Null in a run of a fixed number of walks.
	CSLo, CSHi float64
	Stop       string
	Estimator  string  // what estimated the rate: walks or splitting
	DecidedBy  string  // exact, walk (a deterministic rule) or sample
	Family     string  // the Holm family of the claim's sampled verdict
	PValue     float64 // sampled per-board claims: the verdict's p-value (stats.VerdictPValue); else NaN (null)
	PHolm      float64 // PValue adjusted by Holm within the family; NaN (null) where PValue is
	// VerdictHolm is the verdict once the family is adjusted: Verdict, or
	// inconclusive where the adjusted p-value is above 1 − confidence.
	VerdictHolm string
	Verdict     string

	// A claim compared with a published count (kind published): the
	// published successes and trials per board (null elsewhere), whether
	// the trials are assumed (the publication gives none), our rate minus
	// theirs with its interval (null where either is), and the test that
	// gave p_value: barnard (two samples) or binomial (our side
	// exact); "" for other claims.
	PublishedSuccesses NullInt64
	PublishedTrials    NullInt64
	TrialsAssumed      bool
	DiffLo             float64
	DiffHi             float64
	Test               string
	// Against a published count: the equivalence margin, the p-values of
	// the two one-sided tests of equivalence (reproduced needs both at
	// most 1 − confidence), the smallest difference the run could detect
	// with 80 % power, and how many walks would decide an inconclusive
	// comparison (null where decided, or where no number of walks would).
	// NaN (null) for other claims.
	Margin      float64
	PEquivLower float64
	PEquivUpper float64
	Detectable  float64
	WalksNeeded NullInt64
	// Unverified: the claim's source is marked "not verified" in
	// sources.yaml (we have not seen its page).
	Unverified bool

	// Reading names how the claim was read (start, tie-break, score), as
	// the experiment file names it; "" for a claim listed once without
	// one. Fitted marks a reading chosen because it reproduces the
	// published number: reported, never support.
	Reading string
	Fitted  bool

	Params RuleParams // the rule's parameters

}

// WalkRow records one walk. The walks table is optional (a run writes it
// when asked to) and can be large: millions of rows. A WalkWriter writes
// it a batch at a time.
type WalkRow struct {
	Experiment string // the experiment's name
	Board      string
	Rule       string
	Start      string
	StartRow   int32
	StartCol   int32
	Walk       int64 // the walk index w within (board, rule, start)
	Length     int32
	Success    bool
	Closed     bool
	End        string
	EndRow     int32
	EndCol     int32
	Ties       int32
	Outcome    string    // success (open), closed, dead_end, stopped or budget
	Nodes      NullInt64 // backtrack only: squares entered
	Backtracks NullInt64 // backtrack only: moves undone

	Params RuleParams // the rule's parameters

}

// NullInt64 is the value of a nullable int64 column: null unless Valid.
type NullInt64 struct {
	Int64 int64
	Valid bool
}

// Int64Of returns v as a valid NullInt64.
func Int64Of(v int64) NullInt64 { return NullInt64{Int64: v, Valid: true} }

// NullInt32 is the value of a nullable int32 column: null unless Valid.
type NullInt32 struct {
	Int32 int32
	Valid bool
}

// Int32Of returns v as a valid NullInt32.
func Int32Of(v int32) NullInt32 { return NullInt32{Int32: v, Valid: true} }

// RuleParams are the parameters of a row's rule that its name does not say,
// so that rows of different experiments stay apart after a union. A
// parameter the rule does not have is null ("" or not Valid); one it has
// but the experiment left at its default is written out.
type RuleParams struct {
	// Spec is the rule_spec column: the rule with every parameter that
	// changes a walk in one canonical string (results.RuleSpec), never
	// null; the key to join tables of different runs and exact values on.
	Spec       string
	TieBreak   string    // warnsdorff and backtrack: random, first, pohl or roth
	MaxSteps   NullInt64 // random and warnsdorff: the step limit; null when there is none
	NodeBudget NullInt64 // backtrack: the node budget
	MoveOrder  string    // warnsdorff/first and backtrack: the move order, "(2,1) (1,2) ..."
}

// TourEstimateRow is one row of the tour_estimates table written by
// `experiment count --method sample`: a number of knight's tours
// estimated by sequential importance sampling, with its interval and the
// diagnostics that say whether to trust it (docs/counting.md).
type TourEstimateRow struct {
	Board      string // "8x8"
	Rows       int32
	Cols       int32
	Kind       string // open or closed, counted as in the counts table
	Start      string // "a1", or "all" for the whole board
	Proposal   string // "uniform" or "softmin(beta=B)"
	Tail       int32  // the last squares counted exactly
	Estimate   float64
	Lo         float64
	Hi         float64
	Confidence float64
	Samples    int64 // walks drawn
	Blocks     int64 // independent blocks (one walk from each start counted)
	Tours      int64 // walks that ended in a tour
	RelSE      float64
	ESS        float64
	MaxShare   float64
	KL         float64
	CDSamples  float64
	Trusted    bool
	Warning    string // "" (null) when Trusted
	Zero       string // the theorem by which the count is 0 exactly; "" (null) otherwise
	StoppedBy  string // samples, precision, time or zero
	Seconds    float64
}

// CountRow is one row of the counts table written by `experiment count`:
// an exact number of knight's tours on a board, from one start square or
// in total.
type CountRow struct {
	Board string // "8x8"
	Rows  int32
	Cols  int32
	Start string // "a1"; "" (null) for a total
	Kind  string // one of CountKinds
	Count int64
}
