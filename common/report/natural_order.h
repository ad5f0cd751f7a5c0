// Natural order of names: runs of digits compare as numbers, so shapes sort
// the way people read them (mm_128x512 before mm_1024x512, 512x512x511 before
// 512x512x1023), where plain string order would not.
#pragma once

#include <string_view>

namespace nx {

bool natural_less(std::string_view a, std::string_view b);

}  // namespace nx
