// libyaml for Swift.
#pragma once
#include <yaml.h>
