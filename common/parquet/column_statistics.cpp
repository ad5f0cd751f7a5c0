#include "common/parquet/column_statistics.h"

namespace nx::parquet {

void ColumnStatistics::fill(ColumnMetaData& m) const {
    m.null_count = nulls_;
    if (any_number_) {
        m.max_value = max_;
        m.min_value = min_;
    } else if (strings_.any) {
        if (strings_.has_max) m.max_value = strings_.max;
        m.min_value = strings_.min;
        // A cut value is a bound, not a value of the column.
        if (strings_.has_max && !strings_.max_exact) m.max_value_exact = false;
        if (!strings_.min_exact) m.min_value_exact = false;
    }
}

}  // namespace nx::parquet
